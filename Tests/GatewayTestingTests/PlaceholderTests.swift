import Testing

@Suite struct PlaceholderTests {
    @Test func targetBuilds() { #expect(1 + 1 == 2) }
}
