import Foundation

/// Runs the built `alicia-player` executable.
///
/// The binary sits in the build products directory next to the test bundle (for example
/// `.build/x86_64-unknown-linux-gnu/debug/`), so it is found by walking up from `/proc/self/exe`;
/// `ALICIA_PLAYER_BIN` overrides that. stdout and stderr are pipes, so the player stays quiet on
/// success; the child inherits this process's environment (PULSE_SERVER from scripts/test) plus the
/// given variables.
public enum PlayerProcess {
    public static let executableName = "alicia-player"

    /// The executable's path; throws a readable error if the binary was not built.
    public static func executablePath() throws -> String {
        try located.get()
    }

    /// Runs `alicia-player arguments…` to completion. Throws if it outlives `timeout` (it is
    /// killed first): a hang is a failure, not a wait.
    public static func run(
        _ arguments: [String],
        environment: [String: String] = [:],
        timeout: Duration = .seconds(30)
    ) async throws -> PlayerResult {
        let child = try start(arguments, environment: environment)
        return try await result(of: child, timeout: timeout)
    }

    /// Starts `alicia-player arguments…` and returns at once, for tests that signal it while it runs
    /// (``ChildProcess/send(_:)``), then collect it with ``result(of:timeout:)``.
    ///
    /// Every run gets a state directory of its own (`XDG_STATE_HOME`) unless the test gives one, so
    /// no run resumes from where another left an episode; and a cache directory (`XDG_CACHE_HOME`,
    /// the completion cache) inside it, so no run writes the user's. Matched loudness is off unless
    /// the test says otherwise (`--loudness`, or `ALICIA_LOUDNESS` in `environment`): most tests
    /// compare the samples played with the file's, bit for bit.
    ///
    /// `niceness` runs it under `nice -n NICENESS` (every thread of it, from its first), for tests
    /// of a player starved of CPU.
    public static func start(_ arguments: [String], environment: [String: String] = [:], niceness: Int? = nil) throws -> ChildProcess {
        var environment = environment
        if environment["XDG_STATE_HOME"] == nil { environment["XDG_STATE_HOME"] = try freshStateDirectory() }
        if environment["XDG_CACHE_HOME"] == nil, let state = environment["XDG_STATE_HOME"] { environment["XDG_CACHE_HOME"] = state + "/cache" }
        if environment["ALICIA_LOUDNESS"] == nil { environment["ALICIA_LOUDNESS"] = "off" }
        try isolate(&environment)
        if let niceness {
            return try ChildProcess("nice", ["-n", String(niceness), executablePath()] + arguments, environment: environment)
        }
        return try ChildProcess(executablePath(), arguments, environment: environment)
    }

    /// What keeps players that run at once apart, unless the test says otherwise: a runtime
    /// directory of its own (so each has its own control socket at the default path), the
    /// PulseAudio server named explicitly (libpulse finds it through the runtime directory
    /// otherwise), a cache directory and a data directory (the library database) of its own, and no
    /// session bus (MPRIS only where a test starts a private one).
    public static func isolate(_ environment: inout [String: String]) throws {
        let inherited = ProcessInfo.processInfo.environment
        if environment["PULSE_SERVER"] == nil && inherited["PULSE_SERVER"] == nil,
           let runtime = inherited["XDG_RUNTIME_DIR"], access(runtime + "/pulse/native", F_OK) == 0 {
            environment["PULSE_SERVER"] = "unix:" + runtime + "/pulse/native"
        }
        if environment["XDG_RUNTIME_DIR"] == nil {
            let runtime = try freshStateDirectory()
            chmod(runtime, 0o700)
            environment["XDG_RUNTIME_DIR"] = runtime
        }
        if environment["DBUS_SESSION_BUS_ADDRESS"] == nil { environment["DBUS_SESSION_BUS_ADDRESS"] = "" }
        // A download cache (and offline library) of its own: nothing of the machine's, or of another run's.
        if environment["XDG_CACHE_HOME"] == nil { environment["XDG_CACHE_HOME"] = try freshStateDirectory() }
        // A library database (and the listening reports' outbox in it) beside the run's state, never the machine's.
        if environment["XDG_DATA_HOME"] == nil {
            environment["XDG_DATA_HOME"] = try environment["XDG_STATE_HOME"].map { $0 + "/data" } ?? freshStateDirectory()
        }
    }

    /// `environment` with `isolate(_:)` applied: for a player started through a shell.
    public static func isolated(_ environment: [String: String]) throws -> [String: String] {
        var environment = environment
        try isolate(&environment)
        return environment
    }

    /// A new empty directory for one run's state, under `ALICIA_TEST_STATE` (which scripts/test
    /// makes and removes) or the temporary directory.
    public static func freshStateDirectory() throws -> String {
        let environment = ProcessInfo.processInfo.environment
        let base = environment["ALICIA_TEST_STATE"].flatMap { $0.isEmpty ? nil : $0 }
            ?? environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((base + "/alicia-state.XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw HarnessError("cannot make a state directory under \(base): \(String(cString: strerror(errno)))")
        }
        return String(cString: made)
    }

    /// Waits for a started player; throws if it outlives `timeout` (it is killed first).
    /// `log`: the player's ALICIA_LOG_FILE, whose last 80 lines a hang's error shows.
    public static func result(of child: ChildProcess, timeout: Duration = .seconds(30), log: String? = nil) async throws -> PlayerResult {
        let result = await child.wait(timeout: timeout)
        if result.timedOut {
            let tail = log.flatMap { try? String(contentsOfFile: $0, encoding: .utf8) }
                .map { "\nits log, last 80 lines:\n" + $0.split(separator: "\n").suffix(80).joined(separator: "\n") } ?? ""
            throw HarnessError(
                "`\(child.commandLine)` hung: killed after \(timeout); stdout: \(result.stdoutText.debugDescription), stderr: \(result.stderrText.debugDescription)\(tail)"
            )
        }
        return PlayerResult(result)
    }

    private static let located: Result<String, HarnessError> = locate()

    private static func locate() -> Result<String, HarnessError> {
        if let override = ProcessInfo.processInfo.environment["ALICIA_PLAYER_BIN"], !override.isEmpty {
            return access(override, X_OK) == 0
                ? .success(override)
                : .failure(HarnessError("ALICIA_PLAYER_BIN=\(override) is not an executable file"))
        }
        var starts: [String] = []
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            starts.append(exe)
        }
        if let first = CommandLine.arguments.first {
            starts.append(URL(fileURLWithPath: first).standardizedFileURL.path)
        }
        var searched: [String] = []
        for start in starts {
            var directory = URL(fileURLWithPath: start).deletingLastPathComponent()
            while directory.path != "/" {
                let candidate = directory.appendingPathComponent(executableName).path
                searched.append(directory.path)
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory.boolValue,
                    access(candidate, X_OK) == 0
                {
                    return .success(candidate)
                }
                directory.deleteLastPathComponent()
            }
        }
        return .failure(
            HarnessError(
                "\(executableName) not found in any directory above the test bundle (searched \(searched.prefix(3).joined(separator: ", "))…); build it (`swift build --build-tests`) or set ALICIA_PLAYER_BIN"
            )
        )
    }
}
