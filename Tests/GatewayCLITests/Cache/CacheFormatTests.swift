import Foundation
import Gateway
import Testing
@testable import GatewayCLI

@Suite struct CacheFormatTests {
    @Test(arguments: [
        (0, "0 B"), (512, "512 B"), (1023, "1023 B"), (1024, "1.0 KiB"), (2048, "2.0 KiB"), (1536, "1.5 KiB"),
        (1_048_575, "1.0 MiB"), (1_572_864, "1.5 MiB"), (64 << 20, "64.0 MiB"), (3 << 30, "3.0 GiB"),
    ])
    func sizesReadAsAPersonWritesThem(bytes: Int, text: String) {
        #expect(CacheFormat.size(bytes) == text)
    }

    @Test(arguments: [
        (0.0, "0 s"), (0.9, "0 s"), (59.0, "59 s"), (60.0, "1 min"), (180.0, "3 min"), (3599.0, "59 min"),
        (3600.0, "1 h"), (7300.0, "2 h"), (86_400.0, "1 d"), (10 * 86_400.0, "10 d"), (-5.0, "0 s"),
    ])
    func durationsUseTheirLargestWholeUnit(seconds: Double, text: String) {
        #expect(CacheFormat.duration(seconds) == text)
    }

    @Test func expiryReadsAsNeverInOrExpiredAgo() {
        let now = CacheFixture.now
        #expect(CacheFormat.expiry(nil, now: now) == "never")
        #expect(CacheFormat.expiry(now.addingTimeInterval(300), now: now) == "in 5 min")
        #expect(CacheFormat.expiry(now.addingTimeInterval(0.2), now: now) == "in 1 s")
        #expect(CacheFormat.expiry(now, now: now) == "expired 0 s ago")
        #expect(CacheFormat.expiry(now.addingTimeInterval(-7200), now: now) == "expired 2 h ago")
        #expect(CacheFormat.age(of: now.addingTimeInterval(-180), now: now) == "3 min")
    }

    @Test func timesArePrintedInUTC() {
        #expect(CacheFormat.time(CacheFixture.now) == "2027-01-15 08:00:00 UTC")
        #expect(CacheFormat.iso8601(CacheFixture.now.addingTimeInterval(0.25)) == "2027-01-15T08:00:00.250Z")
        #expect(CacheFormat.moment(CacheFixture.now.addingTimeInterval(-60), now: CacheFixture.now)
                    == "2027-01-15 07:59:00 UTC (1 min ago)")
    }

    @Test func longTextsAreShortenedInTheMiddleAndPartitionsNamed() {
        let url = "https://api.example.com/very/long/path/to/a/resource?with=query&and=more"
        let short = CacheFormat.shortened(url, to: 30)
        #expect(short.count == 30)
        #expect(short.hasPrefix("https://api.example"))
        #expect(short.hasSuffix("and=more"))
        #expect(short.contains("…"))
        #expect(CacheFormat.shortened("short", to: 30) == "short")
        #expect(CacheFormat.partition(.anonymous) == "anonymous")
        #expect(CacheFormat.partition(.subject("anonymous")) == "subject:anonymous")
        #expect(CacheFormat.partition(.subject("user-1234567890-abcdef"), maximum: 12).count == 12)
    }

    @Test func partitionOptionsReadBackAsTheyPrint() throws {
        #expect(try CacheOptions.partition("anonymous") == .anonymous)
        #expect(try CacheOptions.partition("subject:anonymous") == .subject("anonymous"))
        #expect(try CacheOptions.partition("user-1") == .subject("user-1"))
        #expect(try CacheOptions.partition("subject:") == .subject(""))
    }

    @Test func helpDescribesEveryVerbFlagAndExitStatus() async {
        let run = await runCache(["--help"])
        #expect(run.status == 0)
        for verb in CacheCommand.verbs {
            #expect(run.stdout.contains("gateway cache \(verb.name)"), "\(verb.name)")
        }
        for flag in ["--db PATH", "--json", "--redact NAME", "--operation NAME", "--partition ID", "--tag TAG",
                     "--expired", "--sort age|size|hits", "NO_COLOR", "Exit status:", "$GATEWAY_CACHE"] {
            #expect(run.stdout.contains(flag), "\(flag)")
        }
        let one = await runCache(["help", "diff"])
        #expect(one.status == 0)
        #expect(one.stdout.hasPrefix("Usage: gateway cache diff KEY KEY\n"))
        #expect(!one.stdout.contains("gateway cache list"))
        let none = await runCache([])
        #expect(none.status == 2)
        #expect(none.stderr.contains("name a verb: list, show, explain, diff, stats, evict, purge, vacuum, verify, export"))
        let sink = CapturedOutput()
        #expect(await Dispatcher.standard.run(["--help"], output: sink.output()) == 0)
        #expect(sink.stdout.contains("\n  cache "))
    }
}
