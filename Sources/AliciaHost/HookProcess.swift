#if canImport(Glibc)
import Glibc
#endif
import AliciaLocks

/// One run of a hook: the program found on PATH and started with its arguments (no shell), the
/// event written to its standard input, its output (stdout and stderr together) collected, and
/// its process group killed when it outlives the time limit.
enum HookProcess {
    struct Outcome {
        var output: [UInt8]
        /// Nil when it exited 0; else what went wrong, in words.
        var problem: String?
    }

    /// At most this much output is kept for the log.
    static let maximumOutput = 64 * 1024

    static func run(_ arguments: [String], input: [UInt8], timeLimit: Double) -> Outcome {
        var inputPipe: [Int32] = [-1, -1]
        var outputPipe: [Int32] = [-1, -1]
        guard pipe(&inputPipe) == 0 else { return Outcome(output: [], problem: "cannot make a pipe: \(String(cString: strerror(errno)))") }
        guard pipe(&outputPipe) == 0 else {
            close(inputPipe[0])
            close(inputPipe[1])
            return Outcome(output: [], problem: "cannot make a pipe: \(String(cString: strerror(errno)))")
        }
        // Our ends are not inherited by the hook (nor by anything else started meanwhile).
        _ = fcntl(inputPipe[1], F_SETFD, FD_CLOEXEC)
        _ = fcntl(outputPipe[0], F_SETFD, FD_CLOEXEC)
        let started = spawn(arguments, stdin: inputPipe[0], output: outputPipe[1])
        close(inputPipe[0])
        close(outputPipe[1])
        guard case .success(let pid) = started else {
            close(inputPipe[1])
            close(outputPipe[0])
            if case .failure(let error) = started { return Outcome(output: [], problem: "cannot start it: \(String(cString: strerror(error.code)))") }
            return Outcome(output: [], problem: "cannot start it")
        }
        // The event is small (well under a pipe's 64 KiB): it is written whole without blocking,
        // read or not.
        _ = fcntl(inputPipe[1], F_SETFL, fcntl(inputPipe[1], F_GETFL) | O_NONBLOCK)
        _ = input.withUnsafeBytes { write(inputPipe[1], $0.baseAddress, $0.count) }
        close(inputPipe[1])
        let deadline = MonotonicClock.seconds() + timeLimit
        let (output, timedOut) = collect(outputPipe[0], until: deadline)
        close(outputPipe[0])
        if timedOut { kill(-pid, SIGKILL) }
        let status = reap(pid, timedOut: timedOut, until: deadline)
        if timedOut { return Outcome(output: output, problem: "stopped at its time limit of \(limitText(timeLimit))") }
        return Outcome(output: output, problem: status)
    }

    private static func limitText(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
    }

    /// Reads the output until it ends (every holder of the pipe has exited) or the deadline passes.
    private static func collect(_ fd: Int32, until deadline: Double) -> (output: [UInt8], timedOut: Bool) {
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let left = deadline - MonotonicClock.seconds()
            guard left > 0 else { return (output, true) }
            var fds = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&fds, 1, Int32(min(left * 1000, 60_000).rounded(.up)))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { continue }
            let n = read(fd, &chunk, chunk.count)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return (output, false) }
            if output.count < maximumOutput { output += chunk[..<min(n, maximumOutput - output.count)] }
        }
    }

    /// Waits for the hook itself (it may have closed its output and still run); a status in words,
    /// nil for exit 0.
    private static func reap(_ pid: pid_t, timedOut: Bool, until deadline: Double) -> String? {
        var status: Int32 = 0
        while true {
            let reaped = waitpid(pid, &status, timedOut ? 0 : WNOHANG)
            if reaped == pid { break }
            if reaped < 0 && errno != EINTR { return nil }
            if reaped == 0 {
                if MonotonicClock.seconds() >= deadline {
                    kill(-pid, SIGKILL)
                    _ = waitpid(pid, &status, 0)
                    return "stopped at its time limit"
                }
                usleep(10_000)
            }
        }
        let signal = status & 0x7f
        if signal != 0 { return "ended by signal \(signal)" }
        let code = (status >> 8) & 0xff
        return code == 0 ? nil : "exit status \(code)"
    }

    /// posix_spawnp in a process group of its own, stdin and both outputs given, signals default.
    struct SpawnError: Error {
        let code: Int32
    }

    private static func spawn(_ arguments: [String], stdin: Int32, output: Int32) -> Result<pid_t, SpawnError> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdin, 0)
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_adddup2(&actions, output, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setpgroup(&attributes, 0)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let result = posix_spawnp(&pid, arguments[0], &actions, &attributes, &argv, environ)
        return result == 0 ? .success(pid) : .failure(SpawnError(code: result))
    }
}
