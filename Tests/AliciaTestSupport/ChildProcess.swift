import Dispatch
import Foundation
import AliciaLocks

/// A child process with its stdout and stderr captured in full.
///
/// The child is started with `posix_spawn` in its own process group, stdin from /dev/null and default
/// dispositions for the usual signals (an ignored SIGINT or SIGPIPE in the test runner would otherwise
/// be inherited across exec). One reader thread per child drains both pipes with `poll`, so a child
/// that fills one pipe while we wait on the other cannot deadlock; the same thread reaps the child.
/// A wait with a timeout kills the whole process group with SIGKILL when the timeout passes.
public final class ChildProcess: Sendable {
    /// How a child ended and what it printed.
    public struct Result: Sendable {
        /// The exit status, or 128 + the signal number when a signal ended the child (as a shell shows it).
        public let status: Int32
        /// The signal that ended the child, nil when it exited.
        public let signal: Int32?
        public let stdout: [UInt8]
        public let stderr: [UInt8]
        /// From spawn to reap.
        public let duration: Duration
        /// When the reader thread reaped the child: for timing an exit without counting how long the
        /// waiting task took to be resumed.
        public let ended: ContinuousClock.Instant
        /// The wait timed out and the harness killed the child.
        public let timedOut: Bool

        public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
        public var stderrText: String { String(decoding: stderr, as: UTF8.self) }
    }

    public let pid: pid_t
    public let executable: String
    public let arguments: [String]

    /// Signalled once by the reader thread after the child is reaped and `outcome.result` is set.
    private let finished = DispatchGroup()
    private let outcome = Locked(Outcome())
    /// What the child has written to stdout so far, for a test that reads it while the child runs.
    private let stdoutSoFar = Locked<[UInt8]>([])
    /// What the child has written to stderr so far, for a test that waits for a line while it runs.
    private let stderrSoFar = Locked<[UInt8]>([])

    /// Held from creating a child's pipes to spawning it (see `init`); counts the children spawned
    /// (a `Locked` needs a value that takes space: see its documentation).
    private static let spawnLock = Locked(0)

    private struct Outcome {
        var result: Result?
        var timedOut = false
    }

    /// Starts `executable` (a path, or a name looked up in PATH, /usr/sbin and /sbin).
    ///
    /// - Parameters:
    ///   - environment: variables set on top of this process's environment.
    ///   - unsetting: variables removed from the inherited environment.
    public init(
        _ executable: String,
        _ arguments: [String],
        environment: [String: String] = [:],
        unsetting: Set<String> = []
    ) throws {
        let path = try Self.resolve(executable)
        self.executable = path
        self.arguments = arguments

        var merged = ProcessInfo.processInfo.environment
        for name in unsetting {
            merged[name] = nil
        }
        merged.merge(environment) { _, new in new }

        var outPipe: [Int32] = [-1, -1]
        var errPipe: [Int32] = [-1, -1]
        var childPID: pid_t = 0
        let started = ContinuousClock.now
        let spawnError = try Self.spawnLock.withLock { spawned in
            spawned += 1
            // Plain pipe() plus FD_CLOEXEC, not pipe2(O_CLOEXEC): pipe2 needs _GNU_SOURCE, which
            // Swift's Glibc does not import. Under this lock no other ChildProcess spawns between the
            // two steps, so no other child inherits these pipes and keeps them open (a reader would
            // then wait for EOF until that other child exits).
            guard pipe(&outPipe) == 0 else {
                throw HarnessError("pipe failed: \(String(cString: strerror(errno)))")
            }
            guard pipe(&errPipe) == 0 else {
                let message = String(cString: strerror(errno))
                close(outPipe[0])
                close(outPipe[1])
                throw HarnessError("pipe failed: \(message)")
            }
            for fd in outPipe + errPipe {
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
            return Self.spawn(
                path: path,
                argv: [path] + arguments,
                environment: merged.map { "\($0.key)=\($0.value)" },
                stdout: outPipe[1],
                stderr: errPipe[1],
                pid: &childPID
            )
        }
        close(outPipe[1])
        close(errPipe[1])
        guard spawnError == 0 else {
            close(outPipe[0])
            close(errPipe[0])
            throw HarnessError("cannot start \(path): \(String(cString: strerror(spawnError)))")
        }
        pid = childPID

        finished.enter()
        let readFDs = (outPipe[0], errPipe[0])
        let thread = Thread { [self] in
            collect(stdoutFD: readFDs.0, stderrFD: readFDs.1, started: started)
        }
        thread.name = "child \(childPID) reader"
        thread.start()
    }

    /// What the child has written to stdout so far.
    public var stdoutTextSoFar: String {
        String(decoding: stdoutSoFar.withLock { $0 }, as: UTF8.self)
    }

    /// Waits (bounded) until the child's stdout holds a whole first line, and returns it; nil when
    /// the child ended or `timeout` passed first.
    public func firstLine(timeout: Duration) -> String? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let bytes = stdoutSoFar.withLock { $0 }
            if let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) {
                return String(decoding: bytes[..<newline], as: UTF8.self)
            }
            if !isRunning { return nil }
            usleep(20_000)
        }
        return nil
    }

    /// What the child has written to stderr so far.
    public var stderrTextSoFar: String {
        String(decoding: stderrSoFar.withLock { $0 }, as: UTF8.self)
    }

    /// True until the child has been reaped.
    public var isRunning: Bool {
        outcome.withLock { $0.result == nil }
    }

    /// Sends `signal` to the child (not to its process group), unless it has already been reaped.
    public func send(_ signal: Int32) {
        outcome.withLock { state in
            if state.result == nil {
                kill(pid, signal)
            }
        }
    }

    /// Waits for the child to end, blocking the calling thread; after `timeout` the child's process
    /// group is killed with SIGKILL and the result says `timedOut`.
    /// `timeout` is a hang guard, scaled by ``TestEnvironment/hangGuardScale``.
    public func waitBlocking(timeout: Duration) -> Result {
        let timeout = timeout * TestEnvironment.hangGuardScale
        if finished.wait(timeout: .now() + timeout.dispatchInterval) == .timedOut {
            outcome.withLock { state in
                if state.result == nil {
                    state.timedOut = true
                    kill(-pid, SIGKILL)
                }
            }
            // SIGKILL cannot be caught; 5 s only guards against a grandchild holding our pipes open.
            _ = finished.wait(timeout: .now() + .seconds(5))
        }
        return outcome.withLock { state in
            state.result
                ?? Result(status: -1, signal: nil, stdout: [], stderr: [], duration: timeout, ended: .now, timedOut: true)
        }
    }

    /// Waits for the child to end without blocking a Swift concurrency thread (the blocking wait runs
    /// on a Dispatch worker); after `timeout` the child's process group is killed.
    public func wait(timeout: Duration) async -> Result {
        await BlockingWork.run { self.waitBlocking(timeout: timeout) }
    }

    /// Runs a command to completion; throws if it outlives `timeout` (it is killed first).
    public static func run(
        _ executable: String,
        _ arguments: [String],
        environment: [String: String] = [:],
        unsetting: Set<String> = [],
        timeout: Duration = .seconds(30)
    ) async throws -> Result {
        let child = try ChildProcess(executable, arguments, environment: environment, unsetting: unsetting)
        let result = await child.wait(timeout: timeout)
        try result.throwIfTimedOut(child.commandLine, timeout)
        return result
    }

    /// ``run(_:_:environment:unsetting:timeout:)`` for synchronous callers (initialisers, deinit).
    public static func runBlocking(
        _ executable: String,
        _ arguments: [String],
        environment: [String: String] = [:],
        unsetting: Set<String> = [],
        timeout: Duration = .seconds(30)
    ) throws -> Result {
        let child = try ChildProcess(executable, arguments, environment: environment, unsetting: unsetting)
        let result = child.waitBlocking(timeout: timeout)
        try result.throwIfTimedOut(child.commandLine, timeout)
        return result
    }

    /// Every process under `pid`, breadth first (children, then theirs), from /proc's children lists.
    public static func descendants(of pid: Int32) -> [Int32] {
        var found: [Int32] = []
        var next = [pid]
        while !next.isEmpty, found.count < 64 {
            let parent = next.removeFirst()
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(parent)/task")) ?? []
            for task in tasks {
                let children = (try? String(contentsOfFile: "/proc/\(parent)/task/\(task)/children", encoding: .utf8)) ?? ""
                let pids = children.split(separator: " ").compactMap { Int32($0) }
                found += pids
                next += pids
            }
        }
        return found
    }

    /// The path of an executable: `name` itself if it contains a slash, else the first match in PATH,
    /// then /usr/local/sbin, /usr/sbin and /sbin (nginx lives in sbin, which a non-root PATH may lack).
    public static func resolve(_ name: String) throws -> String {
        if name.contains("/") {
            guard access(name, X_OK) == 0 else {
                throw HarnessError("\(name) is not an executable file")
            }
            return name
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let directories = path.split(separator: ":").map(String.init) + ["/usr/local/sbin", "/usr/sbin", "/sbin"]
        for directory in directories where !directory.isEmpty {
            let candidate = directory + "/" + name
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory.boolValue,
                access(candidate, X_OK) == 0
            {
                return candidate
            }
        }
        throw HarnessError("\(name) not found in PATH (\(path)) nor in /usr/sbin, /sbin")
    }

    /// The command as a shell would show it, for messages.
    public var commandLine: String {
        ([executable] + arguments).map { $0.contains(" ") ? "'\($0)'" : $0 }.joined(separator: " ")
    }

    /// Reader thread: drains both pipes until both reach EOF, then reaps the child.
    private func collect(stdoutFD: Int32, stderrFD: Int32, started: ContinuousClock.Instant) {
        var output: [[UInt8]] = [[], []]
        var fds = [
            pollfd(fd: stdoutFD, events: Int16(POLLIN), revents: 0),
            pollfd(fd: stderrFD, events: Int16(POLLIN), revents: 0),
        ]
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var openCount = 2
        while openCount > 0 {
            if poll(&fds, nfds_t(fds.count), -1) < 0 {
                if errno == EINTR { continue }
                break
            }
            for index in fds.indices where fds[index].fd >= 0 && fds[index].revents != 0 {
                let count = chunk.withUnsafeMutableBytes { read(fds[index].fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    output[index].append(contentsOf: chunk[0..<count])
                    if index == 0 { stdoutSoFar.withLock { $0.append(contentsOf: chunk[0..<count]) } }
                    if index == 1 { stderrSoFar.withLock { $0.append(contentsOf: chunk[0..<count]) } }
                } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                    close(fds[index].fd)
                    fds[index].fd = -1
                    openCount -= 1
                }
            }
        }
        for fd in fds where fd.fd >= 0 {
            close(fd.fd)
        }

        var rawStatus: Int32 = 0
        while waitpid(pid, &rawStatus, 0) < 0 && errno == EINTR {}
        let ended = ContinuousClock.now
        // The <sys/wait.h> macros do not import into Swift: the low 7 bits are the terminating signal
        // (0 for a normal exit), the next byte the exit code.
        let termSignal = rawStatus & 0x7F
        let signal: Int32? = termSignal == 0 ? nil : termSignal
        let status = signal.map { 128 + $0 } ?? ((rawStatus >> 8) & 0xFF)
        outcome.withLock { state in
            state.result = Result(
                status: status,
                signal: signal,
                stdout: output[0],
                stderr: output[1],
                duration: ended - started,
                ended: ended,
                timedOut: state.timedOut
            )
        }
        finished.leave()
    }

    /// `posix_spawn` with the file actions and attributes described on the type; returns its error code.
    private static func spawn(
        path: String,
        argv: [String],
        environment: [String],
        stdout: Int32,
        stderr: Int32,
        pid: inout pid_t
    ) -> Int32 {
        var fileActions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&fileActions)
        defer { posix_spawn_file_actions_destroy(&fileActions) }
        posix_spawn_file_actions_addopen(&fileActions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&fileActions, stdout, 1)
        posix_spawn_file_actions_adddup2(&fileActions, stderr, 2)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGQUIT, SIGHUP, SIGPIPE, SIGCHLD, SIGUSR1, SIGUSR2, SIGALRM] {
            sigaddset(&defaults, signal)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes,
            Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK)
        )

        let cArguments = argv.map { strdup($0) } + [nil]
        let cEnvironment = environment.map { strdup($0) } + [nil]
        defer {
            cArguments.forEach { free($0) }
            cEnvironment.forEach { free($0) }
        }
        return posix_spawn(&pid, path, &fileActions, &attributes, cArguments, cEnvironment)
    }
}

extension ChildProcess.Result {
    fileprivate func throwIfTimedOut(_ commandLine: String, _ timeout: Duration) throws {
        if timedOut {
            throw HarnessError(
                "`\(commandLine)` did not finish within \(timeout * TestEnvironment.hangGuardScale) and was killed; stderr: \(stderrText)"
            )
        }
    }
}
