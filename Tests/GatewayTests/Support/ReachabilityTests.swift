import Foundation
@testable import Gateway
import GatewayTestSupport
import GatewayTesting
import Testing

@Suite(.quietScheduler) struct ReachabilityTests {
    @Test func anUnusableNetworkFailsAtOnceWithoutWaiting() async throws {
        let stub = StubTransport().on(.get, "x", reply: .status(200))
        let network = ManualReachability(NetworkPath(status: .unsatisfied, interfaces: [.loopback]))
        let provider = makeProvider(stub) {
            $0.reachability = network
            $0.retryPolicy = .none
        }
        let error = try await #require(throws: GatewayError.self) { try await provider.send(Endpoint<Empty>.get("x")) }
        #expect(error.kind == .transport)
        #expect(error.message.contains("network is not usable"))
        #expect(stub.requests.isEmpty)
    }

    @Test func aRequestThatWaitsForConnectivityGoesWhenTheNetworkComesBack() async throws {
        let stub = StubTransport().on(.get, "x", reply: .status(200))
        let network = ManualReachability(NetworkPath(status: .unsatisfied))
        let provider = makeProvider(stub) {
            $0.reachability = network
            $0.waitsForConnectivity = true
        }
        let task = Task { try await provider.send(Endpoint<Empty>.get("x")) }
        await network.waitForWaiters(1)
        #expect(stub.requests.isEmpty)
        network.path = NetworkPath(status: .satisfied, interfaces: [.wifi])
        let response = try await task.value
        #expect(response.metrics.network == NetworkPath(status: .satisfied, interfaces: [.wifi]))
        #expect(response.metrics.waitingForConnectivity > .zero)
        #expect(stub.requests.count == 1)
    }

    @Test func waitingForConnectivityIsBoundedByTheDeadline() async throws {
        let stub = StubTransport().on(.get, "x", reply: .status(200))
        let clock = ManualClock()
        let network = ManualReachability(NetworkPath(status: .unsatisfied))
        let provider = makeProvider(stub) {
            $0.reachability = network
            $0.clock = clock
            $0.deadline = .seconds(10)
            $0.retryPolicy = .none
        }
        let started = ContinuousClock.now
        let task = Task {
            try await provider.send(Endpoint<Empty>.get("x").with { $0.waitsForConnectivity = true })
        }
        await clock.waitForSleeps(1)
        // The wait is what is left of the 10 s deadline: less only by the real time that passed
        // before it began (seconds, on a loaded machine).
        let realTime = ContinuousClock.now - started
        #expect(clock.sleeps.first.map { $0 >= .seconds(10) - realTime && $0 <= .seconds(10) } == true)
        clock.advance(by: .seconds(10))
        let error = try await #require(throws: GatewayError.self) { try await task.value }
        #expect(error.kind == .timeout)
        #expect(stub.requests.isEmpty)
        #expect(network.waitingCount == 0)
    }

    @Test func cancellingARequestWaitingForTheNetworkEndsIt() async throws {
        let network = ManualReachability(NetworkPath(status: .unsatisfied))
        let provider = makeProvider(StubTransport()) {
            $0.reachability = network
            $0.waitsForConnectivity = true
        }
        let task = Task { try await provider.send(Endpoint<Empty>.get("x")) }
        await network.waitForWaiters(1)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(network.waitingCount == 0)
    }

    @Test func requestsToThisMachineNeverWaitForTheNetwork() async throws {
        let stub = StubTransport().on(.get, "x", reply: .status(200))
        let network = ManualReachability(NetworkPath(status: .unsatisfied, interfaces: [.loopback]))
        let provider = Provider(baseURL: try #require(URL(string: "http://127.0.0.1:8080/")), transport: stub) {
            $0.reachability = network
        }
        let response = try await provider.send(Endpoint<Empty>.get("x"))
        #expect(response.metrics.network?.status == .unsatisfied)
        #expect(Pipeline.isLoopback(try #require(URL(string: "http://localhost/"))))
        #expect(Pipeline.isLoopback(try #require(URL(string: "http://[::1]:80/"))))
        #expect(Pipeline.isLoopback(try #require(URL(string: "http://127.1.2.3/"))))
        #expect(!Pipeline.isLoopback(try #require(URL(string: "http://127.example.com/"))))
        #expect(!Pipeline.isLoopback(try #require(URL(string: "https://api.example.com/"))))
    }

    @Test func theSystemMonitorSeesThisMachinesInterfaces() {
        let path = SystemReachability().currentPath
        #if os(Linux)
        // Every Linux machine, container or not, has a loopback interface that is up.
        #expect(path.interfaces.contains(.loopback))
        #expect(path.status != .unknown)
        #endif
        _ = path
    }

    #if os(Linux)
    @Test func linuxInterfacesAreClassifiedFromSysfs() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gateway-sysfs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        func make(_ name: String, type: Int, files: [String] = []) throws {
            let directory = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data("\(type)\n".utf8).write(to: directory.appendingPathComponent("type"))
            for file in files { try Data().write(to: directory.appendingPathComponent(file)) }
        }
        try make("eth0", type: 1)
        try make("wlan0", type: 1, files: ["wireless"])
        try make("tun0", type: 65534, files: ["tun_flags"])
        try make("wg0", type: 65534)
        try make("wwan0", type: 519)
        try make("docker0", type: 1, files: ["bridge"])
        try make("sit1", type: 776)
        let sysfs = folder.path
        #expect(LinuxInterfaces.classify("eth0", isLoopback: false, sysfs: sysfs) == .wired)
        #expect(LinuxInterfaces.classify("wlan0", isLoopback: false, sysfs: sysfs) == .wifi)
        #expect(LinuxInterfaces.classify("tun0", isLoopback: false, sysfs: sysfs) == .vpn)
        #expect(LinuxInterfaces.classify("wg0", isLoopback: false, sysfs: sysfs) == .vpn)
        #expect(LinuxInterfaces.classify("wwan0", isLoopback: false, sysfs: sysfs) == .cellular)
        #expect(LinuxInterfaces.classify("docker0", isLoopback: false, sysfs: sysfs) == nil)
        #expect(LinuxInterfaces.classify("sit1", isLoopback: false, sysfs: sysfs) == .vpn)
        #expect(LinuxInterfaces.classify("lo", isLoopback: true, sysfs: sysfs) == .loopback)
        #expect(LinuxInterfaces.classify("../etc", isLoopback: false, sysfs: sysfs) == .other)
    }
    #endif
}
