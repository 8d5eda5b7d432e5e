#if canImport(Glibc)
import Glibc
#endif
import AliciaTestSupport

/// A private session bus (a `dbus-daemon` of its own) for the MPRIS tests, and playerctl on it.
struct SessionBus {
    let address: String
    var environment: [String: String] { ["DBUS_SESSION_BUS_ADDRESS": address] }

    /// Runs `body` with a new bus, which is stopped after it.
    static func with<R>(_ body: (SessionBus) async throws -> R) async throws -> R {
        let started = try await ChildProcess.run("dbus-daemon", ["--session", "--print-address=1", "--print-pid=1", "--fork", "--nopidfile"],
                                                 timeout: .seconds(30))
        let printed = started.stdoutText.split(separator: "\n").map(String.init)
        try TestEnvironment.require(started.status == 0 && printed.count >= 2, "dbus-daemon did not start: \(started.stderrText)")
        defer { if let pid = pid_t(printed[1]) { kill(pid, SIGTERM) } }
        return try await body(SessionBus(address: printed[0]))
    }

    /// playerctl's answer to `words`, for the player alicia_player.
    func playerctl(_ words: [String]) async throws -> ChildProcess.Result {
        try await ChildProcess.run("playerctl", ["-p", "alicia_player"] + words, environment: environment, timeout: .seconds(30))
    }

    /// playerctl's answer to `words`, asked again until its output `holds` (a hang guard of 10 s,
    /// asked every 100 ms); the last answer either way.
    func playerctl(_ words: [String], until holds: (String) -> Bool) async throws -> ChildProcess.Result {
        var answer = try await playerctl(words)
        for _ in 0..<100 where !holds(answer.stdoutText) {
            try await Task.sleep(for: .milliseconds(100))
            answer = try await playerctl(words)
        }
        return answer
    }
}
