import Foundation
import Gateway

extension RequestCommand {
    /// `--output FILE`: the body of a 2xx response written to FILE through `Provider.download`
    /// (moved into place once complete), with a progress bar on standard error when it is a
    /// terminal; `--continue` resumes the partial file an interrupted call left.
    ///
    /// - Returns: the exit status: 0 for a 2xx, 1 for another status (its body to standard
    ///   output, nothing written to FILE), 2 and 3 as for a request without `--output`.
    static func download(_ provider: Provider, _ request: RequestOptions, to file: URL, output: Output) async -> Int32 {
        let task = provider.download(request.endpoint, to: file, resumingPartialFile: request.continues)
        var bar = output.errorIsTerminal ? ProgressBar(color: output.errorUsesColor) : nil
        for await step in task.progress {
            if let line = bar?.redraw(step) { output.writeError(line) }
        }
        if let bar { output.writeError(bar.finish()) }
        do {
            let response = try await task.response
            if request.include { output.writeOut(Data(head(of: response.httpResponse).utf8)) }
            return 0
        } catch let error as GatewayError {
            if error.kind == .status, let response = error.response {
                if request.include { output.writeOut(Data(head(of: response).utf8)) }
                output.writeOut(response.body)
                output.error("gateway request: HTTP \(HTTPStatus.describe(response.status)) from \(request.display); "
                             + "nothing was written to \(file.path)")
                return 1
            }
            output.error("gateway request: \(error)")
            switch error.kind {
            case .invalidRequest, .encoding: return 2
            default: return 3
            }
        } catch {
            output.error("gateway request: \(error)")
            return 3
        }
    }
}
