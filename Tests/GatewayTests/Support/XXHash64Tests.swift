import Foundation
@testable import Gateway
import Testing

@Suite struct XXHash64Tests {
    private static func hash(_ text: String, seed: UInt64 = 0) -> UInt64 {
        Array(text.utf8).withUnsafeBytes { XXHash64.hash($0, seed: seed) }
    }

    /// The published XXH64 values (seed 0), covering each tail length and the 32-byte rounds.
    static let referenceValues: [(String, UInt64)] = [
        ("", 0xEF46_DB37_51D8_E999),
        ("a", 0xD24E_C4F1_A98C_6E5B),
        ("abc", 0x44BC_2CF5_AD77_0999),
        ("hello", 0x26C7_827D_889F_6DA3),
        ("message digest", 0x066E_D728_FCEE_B3BE),
        ("abcdefghijklmnopqrstuvwxyz", 0xCFE1_F278_FA89_835C),
        ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", 0xAAA4_6907_D304_7814),
        (String(repeating: "1234567890", count: 8), 0xE04A_477F_19EE_145D),
    ]

    @Test(arguments: referenceValues)
    func matchesTheReferenceValues(text: String, expected: UInt64) {
        #expect(Self.hash(text) == expected)
    }

    @Test func theSeedAndEveryByteChangeTheHash() {
        let text = String(repeating: "0123456789abcdef", count: 5)
        let base = Self.hash(text)
        #expect(Self.hash(text, seed: 1) != base)
        var bytes = Array(text.utf8)
        for index in bytes.indices {
            bytes[index] ^= 0x01
            #expect(bytes.withUnsafeBytes { XXHash64.hash($0) } != base, "byte \(index)")
            bytes[index] ^= 0x01
        }
    }

    @Test func aStringHashesAsItsUTF8Bytes() {
        let text = "Grüße, 世界"
        #expect(XXHash64.hash(text, seed: 7) == Array(text.utf8).withUnsafeBytes { XXHash64.hash($0, seed: 7) })
    }
}
