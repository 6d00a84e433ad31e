// `gateway-codegen`: the generator that `GatewayCodegenPlugin` runs during `swift build`.
//
//   gateway-codegen --output FILE [--schema FILE]... [--config FILE] OPERATION-FILE...
//
// It reads the files it is given (the plugin lists them), validates the operations against the
// schema and writes every generated type into the one file FILE (written only when its contents
// change, so an unchanged input does not recompile the target). Errors are printed as
// file:line:column diagnostics, which SwiftPM shows as build errors; the exit status is then 1.
// To check generated files into source control instead, use `gateway generate`.
import Foundation
import GatewayCodegen
import GraphQLLanguage

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(status)
}

func read(_ path: String) -> Source {
    guard let data = FileManager.default.contents(atPath: path) else {
        fail("error: gateway-codegen: cannot read '\(path)'.", status: 2)
    }
    return Source(bytes: [UInt8](data), name: path)
}

var arguments = CommandLine.arguments.dropFirst()
var outputPath: String?
var schemaPaths: [String] = []
var configPath: String?
var operationPaths: [String] = []
while let argument = arguments.popFirst() {
    switch argument {
    case "--output", "--schema", "--config":
        guard let value = arguments.popFirst() else { fail("error: gateway-codegen: \(argument) needs a path.", status: 2) }
        if argument == "--output" { outputPath = value }
        if argument == "--schema" { schemaPaths.append(value) }
        if argument == "--config" { configPath = value }
    default:
        operationPaths.append(argument)
    }
}
guard let outputPath else { fail("error: gateway-codegen: --output FILE is required.", status: 2) }
guard !schemaPaths.isEmpty else {
    fail("error: gateway-codegen: no schema: add a schema.graphqls (or schema.json) to the target, "
        + "or name one in gateway-codegen.json as {\"schema\": [\"path/to/schema.graphql\"]}.", status: 2)
}

var configuration = CodegenConfiguration()
if let configPath {
    do throws(CodegenConfiguration.Problem) {
        configuration = try CodegenConfiguration(json: read(configPath).bytes, name: configPath)
    } catch {
        fail("\(configPath): error: \(error.description)", status: 1)
    }
}

let built = Schema.build(files: schemaPaths.map(read))
guard let schema = built.schema else {
    fail(built.diagnostics.map { $0.rendered() }.joined(separator: "\n"), status: 1)
}
let result = CodeGenerator(schema: schema, configuration: configuration).generate(operationPaths.map(read))
guard result.diagnostics.isEmpty else {
    fail(result.diagnostics.map { $0.rendered() }.joined(separator: "\n"), status: 1)
}
if !result.warnings.isEmpty {
    FileHandle.standardError.write(Data((result.warnings.map { $0.rendered() }.joined(separator: "\n") + "\n").utf8))
}
let text = GeneratedSingleFile.join(result.files)
if FileManager.default.contents(atPath: outputPath) != Data(text.utf8) {
    do {
        try Data(text.utf8).write(to: URL(fileURLWithPath: outputPath), options: .atomic)
    } catch {
        fail("error: gateway-codegen: cannot write '\(outputPath)': \(error.localizedDescription)", status: 2)
    }
}
