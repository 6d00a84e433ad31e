import Foundation
import Gateway
import GatewayTesting
import Testing

@Suite struct MultipartTests {
    private func part(_ headers: String, _ content: String) -> String {
        "--B\r\n\(headers)\r\n\r\n\(content)\r\n"
    }

    @Test func textAndDataPartsAreWrittenByteForByte() throws {
        var form = MultipartForm()
        form.append(.text("title", "Holiday snaps"))
        form.append(.data("notes", Data("line 1\nline 2".utf8), filename: "notes.txt", contentType: "text/plain"))
        var request = blankRequest()
        try MultipartParameterEncoder.multipart(boundary: .fixed("B")).encode(form, into: &request)
        let expected = part("Content-Disposition: form-data; name=\"title\"", "Holiday snaps")
            + part("Content-Disposition: form-data; name=\"notes\"; filename=\"notes.txt\"\r\nContent-Type: text/plain",
                   "line 1\nline 2")
            + "--B--\r\n"
        #expect(String(decoding: try bodyBytes(request), as: UTF8.self) == expected)
        #expect(request.headers["Content-Type"] == "multipart/form-data; boundary=B")
        #expect(request.body?.length == Int64(expected.utf8.count))
    }

    @Test func aFilePartIsReadFromDisk() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.url.appendingPathComponent("photo.png")
        let bytes = Data((0..<3000).map { UInt8($0 % 251) })
        try bytes.write(to: file)
        var request = blankRequest()
        try MultipartParameterEncoder.multipart(boundary: .fixed("B"))
            .encode(MultipartForm([.file("photo", url: file)]), into: &request)
        var expected = Data("--B\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"photo.png\"\r\n".utf8)
        expected.append(Data("Content-Type: image/png\r\n\r\n".utf8))
        expected.append(bytes)
        expected.append(Data("\r\n--B--\r\n".utf8))
        guard case .data(let body)? = request.body else {
            Issue.record("a body under the threshold stays in memory")
            return
        }
        #expect(body == expected)
    }

    @Test func aBodyAboveTheThresholdIsStreamedToATemporaryFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.url.appendingPathComponent("track.bin")
        let bytes = Data((0..<300_000).map { UInt8(($0 * 7) % 256) })
        try bytes.write(to: file)
        let spool = folder.url.appendingPathComponent("spool")
        try FileManager.default.createDirectory(at: spool, withIntermediateDirectories: true)
        let encoder = MultipartParameterEncoder(boundary: .fixed("B"), streamingThreshold: 1024, temporaryDirectory: spool)
        var request = blankRequest()
        try encoder.encode(MultipartForm([.text("kind", "audio"), .file("track", url: file, contentType: "audio/x")]),
                           into: &request)
        guard case .file(let url, let length, let removeAfterSending)? = request.body else {
            Issue.record("a body above the threshold goes to a file")
            return
        }
        var expected = Data(part("Content-Disposition: form-data; name=\"kind\"", "audio").utf8)
        expected.append(Data("--B\r\nContent-Disposition: form-data; name=\"track\"; filename=\"track.bin\"\r\n".utf8))
        expected.append(Data("Content-Type: audio/x\r\n\r\n".utf8))
        expected.append(bytes)
        expected.append(Data("\r\n--B--\r\n".utf8))
        #expect(try Data(contentsOf: url) == expected)
        #expect(length == Int64(expected.count))
        #expect(removeAfterSending)
        #expect(url.deletingLastPathComponent().standardizedFileURL.path == spool.standardizedFileURL.path)
        let permissions = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber
        #expect(permissions?.intValue == 0o600)
    }

    @Test func theStreamedBodyArrivesWholeAndItsFileIsDeletedAfterSending() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.url.appendingPathComponent("big.bin")
        let bytes = Data((0..<200_000).map { UInt8($0 % 253) })
        try bytes.write(to: file)
        let spool = folder.url.appendingPathComponent("spool")
        try FileManager.default.createDirectory(at: spool, withIntermediateDirectories: true)
        let stub = StubTransport().on(.post, "uploads", reply: .status(204))
        let encoder = MultipartParameterEncoder(boundary: .fixed("B"), streamingThreshold: 1000, temporaryDirectory: spool)
        let endpoint = Endpoint<Empty>.post("uploads", body: MultipartForm([.file("f", url: file)]), encoder: encoder)
        _ = try await makeProvider(stub).send(endpoint)
        let recorded = try #require(stub.requests.first)
        var expected = Data("--B\r\nContent-Disposition: form-data; name=\"f\"; filename=\"big.bin\"\r\n".utf8)
        expected.append(Data("Content-Type: application/octet-stream\r\n\r\n".utf8))
        expected.append(bytes)
        expected.append(Data("\r\n--B--\r\n".utf8))
        #expect(recorded.body == expected)
        #expect(try FileManager.default.contentsOfDirectory(atPath: spool.path).isEmpty)
    }

    @Test func anEncodableBecomesTextParts() throws {
        var request = blankRequest()
        try MultipartParameterEncoder.multipart(boundary: .fixed("B"))
            .encode(["tags": ["a", "b"], "name": ["x"]], into: &request)
        let expected = part("Content-Disposition: form-data; name=\"name[]\"", "x")
            + part("Content-Disposition: form-data; name=\"tags[]\"", "a")
            + part("Content-Disposition: form-data; name=\"tags[]\"", "b") + "--B--\r\n"
        #expect(String(decoding: try bodyBytes(request), as: UTF8.self) == expected)
    }

    @Test func quotesAndLineBreaksInNamesAreEscaped() throws {
        var request = blankRequest()
        try MultipartParameterEncoder.multipart(boundary: .fixed("B"))
            .encode(MultipartForm([.data("a\"b", Data("x".utf8), filename: "evil\r\nX-Injected: 1.txt")]), into: &request)
        let text = String(decoding: try bodyBytes(request), as: UTF8.self)
        #expect(text.contains("name=\"a%22b\"; filename=\"evil%0D%0AX-Injected: 1.txt\""))
        #expect(!text.contains("\r\nX-Injected"))
    }

    @Test func aMissingFileIsAClearError() throws {
        var request = blankRequest()
        let missing = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/photo.jpg")
        let error = try #require(throws: GatewayError.self) {
            try MultipartParameterEncoder.multipart.encode(MultipartForm([.file("photo", url: missing)]), into: &request)
        }
        #expect(error.kind == .encoding)
        #expect(error.message.contains("cannot be read"))
        #expect(error.message.contains("photo"))
    }

    @Test func aBadBoundaryIsAClearError() throws {
        var request = blankRequest()
        let error = try #require(throws: GatewayError.self) {
            try MultipartParameterEncoder.multipart(boundary: .fixed("bad\r\nboundary"))
                .encode(MultipartForm([.text("a", "b")]), into: &request)
        }
        #expect(error.message.contains("boundary"))
    }

    @Test func randomBoundariesDiffer() throws {
        var first = blankRequest(), second = blankRequest()
        try MultipartParameterEncoder.multipart.encode(MultipartForm([.text("a", "b")]), into: &first)
        try MultipartParameterEncoder.multipart.encode(MultipartForm([.text("a", "b")]), into: &second)
        #expect(first.headers["Content-Type"] != second.headers["Content-Type"])
        #expect(first.headers["Content-Type"]?.hasPrefix("multipart/form-data; boundary=gateway-") == true)
    }
}
