#if !canImport(Network) && (canImport(Glibc) || canImport(Musl))
#if canImport(Glibc)
import Glibc
#else
import Musl
#endif
import Foundation

/// The network path from the system's interfaces: `getifaddrs` and `/sys/class/net`.
enum LinuxInterfaces {
    /// The interfaces that are up and running with a usable address, classified.
    static func currentPath(sysfs: String = "/sys/class/net") -> NetworkPath {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return .unknown }
        defer { freeifaddrs(list) }
        var names: [String: Bool] = [:]  // name → is loopback
        var cursor = list
        while let entry = cursor {
            cursor = entry.pointee.ifa_next
            let flags = Int(entry.pointee.ifa_flags)
            guard flags & IFF_UP != 0, flags & IFF_RUNNING != 0, let address = entry.pointee.ifa_addr,
                  let rawName = entry.pointee.ifa_name, isUsable(address) else { continue }
            names[String(cString: rawName)] = flags & IFF_LOOPBACK != 0
        }
        var interfaces: Set<NetworkPath.Interface> = []
        var satisfied = false
        for (name, isLoopback) in names {
            guard let kind = classify(name, isLoopback: isLoopback, sysfs: sysfs) else { continue }
            interfaces.insert(kind)
            if kind != .loopback { satisfied = true }
        }
        return NetworkPath(status: satisfied ? .satisfied : .unsatisfied, interfaces: interfaces)
    }

    /// What kind of interface `name` is; `nil` for a bridge (it carries others' traffic).
    static func classify(_ name: String, isLoopback: Bool, sysfs: String) -> NetworkPath.Interface? {
        if isLoopback { return .loopback }
        // Kernel interface names never contain "/"; refuse one that would leave the folder.
        guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else { return .other }
        let folder = sysfs + "/" + name
        let files = FileManager.default
        if files.fileExists(atPath: folder + "/bridge") { return nil }
        if files.fileExists(atPath: folder + "/tun_flags") { return .vpn }
        if files.fileExists(atPath: folder + "/wireless") || files.fileExists(atPath: folder + "/phy80211") {
            return .wifi
        }
        let typeText = (try? String(contentsOfFile: folder + "/type", encoding: .utf8)) ?? ""
        switch Int(typeText.trimmingCharacters(in: .whitespacesAndNewlines)) {
        case 772: return .loopback
        case 65534, 768, 769, 776, 778, 823: return .vpn
        case 519, 530: return .cellular
        case 1:
            return name.hasPrefix("wwan") || name.hasPrefix("rmnet") ? .cellular : .wired
        default:
            if name.hasPrefix("wwan") || name.hasPrefix("rmnet") { return .cellular }
            if name.hasPrefix("wg") || name.hasPrefix("tun") || name.hasPrefix("tap") { return .vpn }
            return .other
        }
    }

    /// IPv4 and IPv6 addresses, except link-local ones (169.254/16, fe80::/10).
    private static func isUsable(_ address: UnsafeMutablePointer<sockaddr>) -> Bool {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { ipv4 in
                let host = UInt32(bigEndian: ipv4.pointee.sin_addr.s_addr)
                return host >> 16 != 0xA9FE
            }
        case AF_INET6:
            return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { ipv6 in
                var address6 = ipv6.pointee.sin6_addr
                return withUnsafeBytes(of: &address6) { raw in !(raw[0] == 0xFE && raw[1] & 0xC0 == 0x80) }
            }
        default:
            return false
        }
    }
}
#endif
