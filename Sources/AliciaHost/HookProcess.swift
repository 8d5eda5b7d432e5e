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

    /// Held from making a run's pipes until the child's ends are closed again: two hook lines
    /// start their programs at the same moment on their own threads, and a hook that inherited the
    /// other's output end would keep that reader waiting until it ended (`pipe2(O_CLOEXEC)` is
    /// not in Swift's Glibc module). It counts the programs started: a lock around nothing
    /// (`Locked(())`) is reported by ThreadSanitizer as a race on the lock's own header.
    private static let starting = Locked(0)

    /// `abandoned`: asked while it runs (every 100 ms at the most); true stops it now (the player quits).
    static func run(_ arguments: [String], input: [UInt8], timeLimit: Double, abandoned: () -> Bool = { false }) -> Outcome {
        let started = starting.withLock { count in
            count += 1
            return start(arguments)
        }
        guard case .success(let (pid, inputEnd, outputEnd)) = started else {
            if case .failure(let problem) = started { return Outcome(output: [], problem: problem.text) }
            return Outcome(output: [], problem: "cannot start it")
        }
        // The event is small (well under a pipe's 64 KiB): it is written whole without blocking,
        // read or not.
        _ = fcntl(inputEnd, F_SETFL, fcntl(inputEnd, F_GETFL) | O_NONBLOCK)
        _ = input.withUnsafeBytes { write(inputEnd, $0.baseAddress, $0.count) }
        close(inputEnd)
        let deadline = MonotonicClock.seconds() + timeLimit
        let (output, timedOut) = collect(outputEnd, until: deadline, abandoned: abandoned)
        close(outputEnd)
        if timedOut { kill(-pid, SIGKILL) }
        let status = reap(pid, timedOut: timedOut, until: deadline)
        if timedOut && MonotonicClock.seconds() < deadline {
            return Outcome(output: output, problem: "stopped: the player quit and its hooks' time was up")
        }
        if timedOut { return Outcome(output: output, problem: "stopped at its time limit of \(limitText(timeLimit))") }
        return Outcome(output: output, problem: status)
    }

    struct StartProblem: Error {
        let text: String
    }

    /// The pipes (our ends close-on-exec) and the child: its pid, our input end, our output end.
    private static func start(_ arguments: [String]) -> Result<(pid_t, Int32, Int32), StartProblem> {
        var inputPipe: [Int32] = [-1, -1]
        var outputPipe: [Int32] = [-1, -1]
        guard pipe(&inputPipe) == 0 else { return .failure(StartProblem(text: "cannot make a pipe: \(String(cString: strerror(errno)))")) }
        guard pipe(&outputPipe) == 0 else {
            close(inputPipe[0])
            close(inputPipe[1])
            return .failure(StartProblem(text: "cannot make a pipe: \(String(cString: strerror(errno)))"))
        }
        _ = fcntl(inputPipe[1], F_SETFD, FD_CLOEXEC)
        _ = fcntl(outputPipe[0], F_SETFD, FD_CLOEXEC)
        let started = spawn(arguments, stdin: inputPipe[0], output: outputPipe[1])
        close(inputPipe[0])
        close(outputPipe[1])
        switch started {
        case .success(let pid): return .success((pid, inputPipe[1], outputPipe[0]))
        case .failure(let error):
            close(inputPipe[1])
            close(outputPipe[0])
            return .failure(StartProblem(text: "cannot start it: \(String(cString: strerror(error.code)))"))
        }
    }

    private static func limitText(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
    }

    /// Reads the output until it ends (every holder of the pipe has exited), the deadline passes
    /// or it is abandoned (both: timed out).
    private static func collect(_ fd: Int32, until deadline: Double, abandoned: () -> Bool) -> (output: [UInt8], timedOut: Bool) {
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let left = deadline - MonotonicClock.seconds()
            guard left > 0, !abandoned() else { return (output, true) }
            var fds = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&fds, 1, Int32(min(left * 1000, 100).rounded(.up)))
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
