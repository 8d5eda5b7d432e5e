import Foundation

/// The `pactl` command line, for the harness's few PulseAudio chores.
///
/// It talks to the server libpulse finds (PULSE_SERVER, else the user's runtime directory), the same
/// one the player under test finds.
public enum Pactl {
    /// True if `pactl info` succeeds within 5 s.
    public static func isServerReachable() -> Bool {
        guard let result = try? ChildProcess.runBlocking("pactl", ["info"], timeout: .seconds(5)) else {
            return false
        }
        return result.status == 0
    }

    /// Runs `pactl arguments…` and returns its stdout; throws with pactl's stderr if it fails.
    @discardableResult
    public static func run(_ arguments: [String], timeout: Duration = .seconds(10)) throws -> String {
        let result = try ChildProcess.runBlocking("pactl", arguments, timeout: timeout)
        guard result.status == 0 else {
            let reason = result.stderrText.trimmingCharacters(in: .whitespacesAndNewlines)
            throw HarnessError("`pactl \(arguments.joined(separator: " "))` failed (status \(result.status)): \(reason)")
        }
        return result.stdoutText
    }

    /// Loads a module and returns its index.
    public static func loadModule(_ name: String, _ arguments: [String], server: String? = nil) throws -> Int {
        let output = try run((server.map { ["--server=\($0)"] } ?? []) + ["load-module", name] + arguments)
        guard let index = Int(output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw HarnessError("`pactl load-module \(name)` printed \(output.debugDescription), not a module index")
        }
        return index
    }

    /// The names of the sinks the server lists now (`pactl list short sinks`, its second column):
    /// whole names, since one capture's name is a prefix of others' (`…_1` of `…_12`).
    public static func sinkNames(server: String? = nil) throws -> Set<String> {
        let output = try run((server.map { ["--server=\($0)"] } ?? []) + ["list", "short", "sinks"])
        return Set(output.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t")
            return fields.count > 1 ? String(fields[1]) : nil
        })
    }

    public static func unloadModule(_ index: Int, server: String? = nil) throws {
        try run((server.map { ["--server=\($0)"] } ?? []) + ["unload-module", String(index)], timeout: .seconds(30))
    }

    /// Unloads a module, asking again (0.1 s doubling to 2 s, for up to a minute of hang guard) while
    /// it fails: on a loaded machine a pactl can time out or fail to connect for a moment, and a sink
    /// left loaded is a test's failure. It stops early when the module is gone already ("No such
    /// entity") or the server is (its socket removed: a test's own daemon killed). True when unloaded.
    @discardableResult
    public static func unloadModuleReliably(_ index: Int, server: String? = nil) -> Bool {
        let deadline = ContinuousClock.now + .seconds(60) * TestEnvironment.hangGuardScale
        var pause: UInt32 = 100_000
        while true {
            do {
                try unloadModule(index, server: server)
                return true
            } catch {
                if "\(error)".contains("No such entity") { return true }
                if !serverSocketExists(server) || ContinuousClock.now > deadline { return false }
                usleep(pause)
                pause = min(2 * pause, 2_000_000)
            }
        }
    }

    /// False when `server` (else PULSE_SERVER) names a Unix socket that is not there; true otherwise.
    static func serverSocketExists(_ server: String?) -> Bool {
        guard let name = server ?? ProcessInfo.processInfo.environment["PULSE_SERVER"], name.hasPrefix("unix:") else { return true }
        return access(String(name.dropFirst(5)), F_OK) == 0
    }
}
