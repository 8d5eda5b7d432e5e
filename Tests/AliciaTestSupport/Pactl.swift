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

    public static func unloadModule(_ index: Int, server: String? = nil) throws {
        try run((server.map { ["--server=\($0)"] } ?? []) + ["unload-module", String(index)], timeout: .seconds(30))
    }
}
