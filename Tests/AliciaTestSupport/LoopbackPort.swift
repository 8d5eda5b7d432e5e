import Foundation
import Glibc

/// TCP ports on 127.0.0.1.
public enum LoopbackPort {
    /// A port nothing listens on right now: the kernel picks a free one for a socket that is bound,
    /// read back and closed. Something else may take it later, so servers retry; "connection
    /// refused" tests use `refusing()`.
    public static func unused() throws -> Int {
        let (fd, port) = try bound()
        close(fd)
        return port
    }

    /// A port that refuses connections for as long as the value lives: a socket holds it bound
    /// without listening, so no server started meanwhile (another test's nginx) can take it.
    public final class Refusing: @unchecked Sendable {
        // @unchecked: `fd` is only closed, once, in deinit.
        public let port: Int
        private let fd: Int32

        init() throws {
            (fd, port) = try LoopbackPort.bound()
        }

        deinit { close(fd) }
    }

    public static func refusing() throws -> Refusing { try Refusing() }

    /// A socket bound to a port the kernel picked on 127.0.0.1, not listening, and its port.
    private static func bound() throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else {
            throw HarnessError("socket() failed: \(String(cString: strerror(errno)))")
        }
        var address = loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            close(fd)
            throw HarnessError("bind(127.0.0.1:0) failed: \(String(cString: strerror(errno)))")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getsockname(fd, $0, &length)
            }
        }
        guard named == 0 else {
            close(fd)
            throw HarnessError("getsockname failed: \(String(cString: strerror(errno)))")
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// A connected TCP socket to 127.0.0.1:`port`, or nil if the connection is refused.
    /// Reads and writes on it time out after `ioTimeout`.
    static func connect(port: Int, ioTimeout: Duration = .seconds(5)) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        let (seconds, attoseconds) = ioTimeout.components
        var timeout = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            return nil
        }
        return fd
    }

    /// The port a test server of ours writes to `file` once it listens (Tests/Servers/*.py), waited
    /// for while `server` runs: a hang guard of `patience`, not a timing. Nil when it never came.
    /// The default is 120 s: under two stress-ng loads beside the suite, Python test servers took
    /// longer than 30 s to write their port; a server that dies still ends the wait at once.
    public static func written(to file: String, by server: ChildProcess, patience: Duration = .seconds(120)) async throws -> Int? {
        let deadline = ContinuousClock.now + patience
        while ContinuousClock.now < deadline && server.isRunning {
            let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
            if let port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) { return port }
            try await Task.sleep(for: .milliseconds(25))
        }
        return nil
    }

    /// True if something accepts connections on 127.0.0.1:`port`.
    public static func isAccepting(_ port: Int) -> Bool {
        guard let fd = connect(port: port) else { return false }
        close(fd)
        return true
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port)).bigEndian
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        return address
    }
}
