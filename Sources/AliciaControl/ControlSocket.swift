#if canImport(Glibc)
import Glibc
#endif

/// Why a control socket could not be set up, in one line.
public struct ControlSocketError: Error, Equatable, Sendable {
    public let message: String
    /// Another player answers on the path (a second instance does not take it over).
    public let inUse: Bool

    init(_ message: String, inUse: Bool = false) {
        self.message = message
        self.inUse = inUse
    }
}

/// The Unix-domain socket the control server listens on: where it lives, how it is made private,
/// and how a client reaches it.
public enum ControlSocket {
    /// `$XDG_RUNTIME_DIR/alicia-player/socket`; without a runtime directory,
    /// `/tmp/alicia-player-<uid>/socket` (the directory private to the user either way).
    public static func defaultPath() -> String {
        path(named: defaultName)
    }

    /// The name of the default socket in `directory()`.
    public static let defaultName = "socket"

    /// Where the sockets of players started with `--ipc-name` (and the default one) are:
    /// `$XDG_RUNTIME_DIR/alicia-player`, or `/tmp/alicia-player-<uid>`.
    public static func directory() -> String {
        if let runtime = getenv("XDG_RUNTIME_DIR").map({ String(cString: $0) }), runtime.hasPrefix("/") {
            return runtime + "/alicia-player"
        }
        return "/tmp/alicia-player-\(getuid())"
    }

    /// `--ipc-name NAME`: the socket `NAME` in `directory()`.
    public static func path(named name: String) -> String {
        directory() + "/" + name
    }

    /// Nil when `name` can name a socket (letters, digits, `.`, `-`, `_`; not all digits, which
    /// `ctl --player` takes for a PID); else what is wrong.
    public static func problem(withName name: String) -> String? {
        let allowed = name.unicodeScalars.allSatisfy { ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || "._-".unicodeScalars.contains($0) }
        guard !name.isEmpty, name.utf8.count <= 64, allowed, !name.hasPrefix("."), !name.hasPrefix("-") else {
            return "'\(name)' is not a socket name: letters, digits, '.', '-' and '_', at most 64, not starting with '.' or '-'"
        }
        if name.allSatisfy(\.isNumber) { return "'\(name)' is not a socket name: all digits is a PID to ctl --player" }
        return nil
    }

    /// The sockets in `directory()`, by name, sorted.
    public static func names() -> [String] {
        guard let handle = opendir(directory()) else { return [] }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            var info = stat()
            guard name != ".", name != "..", lstat(path(named: name), &info) == 0, info.st_mode & S_IFMT == S_IFSOCK else { continue }
            names.append(name)
        }
        return names.sorted()
    }

    /// A listening socket, bound and private; its file goes when it is closed.
    public final class Listener: @unchecked Sendable {
        // @unchecked: immutable after init; `close` is called once, by the server's owner.
        public let path: String
        public let descriptor: Int32
        private let device: UInt64
        private let inode: UInt64

        init(path: String, descriptor: Int32, device: UInt64, inode: UInt64) {
            self.path = path
            self.descriptor = descriptor
            self.device = device
            self.inode = inode
        }

        /// Closes the socket and removes its file, unless another instance has replaced it since.
        public func close() {
            var info = stat()
            if stat(path, &info) == 0, UInt64(info.st_dev) == device, UInt64(info.st_ino) == inode { unlink(path) }
            _ = Glibc.close(descriptor)
        }
    }

    /// Binds and listens on `path`. For the default path its directory is made (0700). A socket
    /// another player answers on is left alone (an error that says so); the file of a dead one is
    /// replaced; anything else at the path is an error.
    public static func listen(at path: String, makeDirectory: Bool) throws(ControlSocketError) -> Listener {
        guard path.utf8.count < MemoryLayout.size(ofValue: sockaddr_un().sun_path) else {
            throw ControlSocketError("the socket path \(path) is too long (at most 107 bytes)")
        }
        if makeDirectory, let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            let directory = String(path[..<slash])
            if mkdir(directory, 0o700) != 0 && errno != EEXIST {
                throw ControlSocketError("cannot make \(directory) for the control socket: \(Self.reason(errno))")
            }
            var info = stat()
            guard lstat(directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == getuid() else {
                throw ControlSocketError("\(directory) is not a directory of this user: the control socket is not made there")
            }
            if info.st_mode & 0o077 != 0 { chmod(directory, 0o700) }
        }
        var existing = stat()
        if lstat(path, &existing) == 0 {
            guard existing.st_mode & S_IFMT == S_IFSOCK else {
                throw ControlSocketError("\(path) exists and is not a socket: choose another path with --ipc")
            }
            switch connect(to: path) {
            case .success(let fd):
                _ = Glibc.close(fd)
                throw ControlSocketError("another alicia-player is listening on \(path): control it with `alicia-player ctl`, "
                    + "or start this one with --ipc PATH (another socket) or --no-ipc", inUse: true)
            case .failure:
                // Nobody answers: the file of a player that is gone.
                unlink(path)
            }
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw ControlSocketError("cannot make a socket: \(Self.reason(errno))") }
        var address = Self.address(path)
        // The mode comes from the umask at bind(); fchmod before bind does not reliably set it on Linux.
        let oldMask = umask(0o177)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        let bindError = errno
        umask(oldMask)
        guard bound == 0 else {
            _ = Glibc.close(fd)
            if bindError == EADDRINUSE {
                throw ControlSocketError("another alicia-player is listening on \(path): start this one with --ipc PATH or --no-ipc", inUse: true)
            }
            throw ControlSocketError("cannot listen on \(path): \(Self.reason(bindError))")
        }
        guard Glibc.listen(fd, 64) == 0 else {
            let error = errno
            _ = Glibc.close(fd)
            unlink(path)
            throw ControlSocketError("cannot listen on \(path): \(Self.reason(error))")
        }
        var info = stat()
        _ = stat(path, &info)
        return Listener(path: path, descriptor: fd, device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// A connected, blocking client socket to `path`, or the errno of the failure.
    public static func connect(to path: String) -> Result<Int32, ConnectError> {
        guard path.utf8.count < MemoryLayout.size(ofValue: sockaddr_un().sun_path) else { return .failure(ConnectError(code: ENAMETOOLONG)) }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .failure(ConnectError(code: errno)) }
        var address = Self.address(path)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            let error = errno
            _ = Glibc.close(fd)
            return .failure(ConnectError(code: error))
        }
        return .success(fd)
    }

    public struct ConnectError: Error, Sendable {
        public let code: Int32
        public var message: String { ControlSocket.reason(code) }
    }

    static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    private static func address(_ path: String) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let bytes = Array(path.utf8)
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return address
    }
}
