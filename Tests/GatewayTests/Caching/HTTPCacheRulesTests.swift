import Foundation
@testable import Gateway
import Testing

/// Which responses `HTTPCacheRules` lets the cache store at all (RFC 9111 §3, as Gateway applies it).
@Suite struct HTTPCacheRulesTests {
    @Test func onlyACompleteSuccessfulStatusIsStorable() {
        let rules = HTTPCacheRules(["Cache-Control": "max-age=60"])
        let storable = (100...599).filter { rules.isStorable(status: $0) }
        #expect(storable == [200, 203, 204])
    }

    @Test func noStoreAndVaryStarKeepAnyStatusOut() {
        #expect(!HTTPCacheRules(["Cache-Control": "no-store"]).isStorable(status: 200))
        #expect(!HTTPCacheRules(["Cache-Control": "max-age=60", "Vary": "*"]).isStorable(status: 200))
        #expect(HTTPCacheRules(["Cache-Control": "max-age=60", "Vary": "Accept"]).isStorable(status: 203))
    }
}
