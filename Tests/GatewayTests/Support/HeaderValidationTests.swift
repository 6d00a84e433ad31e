import Foundation
@testable import Gateway
import Testing

/// `HeaderValidation` refuses field names that are not RFC 9110 tokens and values with CR, LF or
/// NUL, byte by byte, and nothing else.
@Suite struct HeaderValidationTests {
    /// RFC 9110's `tchar`, spelled out.
    private static let tokenCharacters =
        Set("!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)

    @Test func aNameIsAcceptedExactlyWhenEveryByteIsATokenCharacter() {
        for byte in UInt8(0)...UInt8(127) {
            let name = "X" + String(decoding: [byte], as: UTF8.self) + "y"
            let accepted = (try? HeaderValidation.check([name: "v"])) != nil
            #expect(accepted == Self.tokenCharacters.contains(byte), "byte \(byte)")
        }
        #expect(throws: GatewayError.self) { try HeaderValidation.check(["Naïve": "v"]) }
        #expect(throws: GatewayError.self) { try HeaderValidation.check(["": "v"]) }
    }

    @Test func aValueIsRefusedExactlyWhenItHoldsCRLFOrNUL() {
        for byte in UInt8(0)...UInt8(127) {
            let value = "a" + String(decoding: [byte], as: UTF8.self) + "b"
            let accepted = (try? HeaderValidation.check(["X-Note": value])) != nil
            #expect(accepted == ![0x00, 0x0A, 0x0D].contains(byte), "byte \(byte)")
        }
        #expect((try? HeaderValidation.check(["X-Note": "café ☕"])) != nil)
    }

    @Test func theErrorNamesTheFieldButNotItsValue() throws {
        let error = try #require(throws: GatewayError.self) {
            try HeaderValidation.check(["Accept": "*/*", "X-Note": "a\r\nInjected: yes"])
        }
        #expect(error.kind == .invalidRequest && error.message.contains("X-Note"))
        #expect(!error.description.contains("Injected"))
    }
}
