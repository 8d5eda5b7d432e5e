import AliciaTestSupport
import Foundation
import Testing

extension StudioTests {
    /// A tmux server of its own, with one window running a script.
    final class Tmux: Sendable {
        let socket = "alicia-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let directory: TemporaryDirectory

        init(command: String, columns: Int = 100, rows: Int = 30, environment: [String: String]) throws {
            directory = try TemporaryDirectory(prefix: "tmux")
            var environment = environment
            // Volume and speed are remembered in the state directory: each run gets its own.
            if environment["XDG_STATE_HOME"] == nil { environment["XDG_STATE_HOME"] = directory.file("state") }
            // The player's own account of a run, for a wait that times out (not the screen's: a file).
            if environment["ALICIA_LOG"] == nil && environment["ALICIA_LOG_FILE"] == nil {
                environment["ALICIA_LOG"] = "debug"
                environment["ALICIA_LOG_FILE"] = directory.file("player.log")
            }
            let exports = environment.map { "export \($0.key)='\($0.value)'" }.joined(separator: "; ")
            let script = """
                \(exports)
                stty -g > '\(directory.file("stty-before"))'
                \(command)
                echo $? > '\(directory.file("status"))'
                stty -g > '\(directory.file("stty-after"))'
                sleep 600
                """
            let path = try directory.write(Array(script.utf8), as: "run.sh")
            try run(["new-session", "-d", "-s", "studio", "-x", "\(columns)", "-y", "\(rows)", "bash \(path)"])
        }

        @discardableResult
        func run(_ arguments: [String]) throws -> String {
            let result = try ChildProcess.runBlocking(try ChildProcess.resolve("tmux"), ["-L", socket, "-f", "/dev/null"] + arguments,
                                                  timeout: .seconds(30))
            return result.stdoutText
        }

        func keys(_ keys: String...) throws { try run(["send-keys", "-t", "studio"] + keys) }

        func screen() -> String { (try? run(["capture-pane", "-p", "-t", "studio"])) ?? "" }

        /// The screen with lines the terminal wrapped joined again.
        func joinedScreen() -> String { (try? run(["capture-pane", "-p", "-J", "-t", "studio"])) ?? "" }

        /// Waits until the screen satisfies `condition`; returns the last screen. The bound is a
        /// hang guard, not a speed: a Studio starved by a loaded machine still gets there.
        @discardableResult
        func waitFor(_ what: String, timeout: Duration = .seconds(60), _ condition: (String) -> Bool) async throws -> String {
            let deadline = ContinuousClock.now + timeout
            var last = ""
            while ContinuousClock.now < deadline {
                last = await BlockingWork.run { self.screen() }
                if condition(last) { return last }
                // Not Thread.sleep: a blocked thread of the cooperative pool (two on two cores) stalls
                // every other test's awaits, and a loaded suite then sent signals 20 s late.
                try await Task.sleep(for: .milliseconds(100))
            }
            throw HarnessError("timed out waiting for \(what); the screen was:\n\(last)\n\(diagnosis())")
        }

        /// What a hung Studio was doing: its log's last lines and, where elfutils is installed, the
        /// threads' stacks of every process under the pane.
        func diagnosis() -> String {
            var text = ""
            if let log = file("player.log") {
                text += "the player's log, last 60 lines:\n" + log.split(separator: "\n").suffix(60).joined(separator: "\n") + "\n"
            }
            guard let stack = try? ChildProcess.resolve("eu-stack"),
                  let pane = Int32((try? run(["list-panes", "-t", "studio", "-F", "#{pane_pid}"]))?
                                      .trimmingCharacters(in: .whitespacesAndNewlines) ?? "") else { return text }
            for pid in ChildProcess.descendants(of: pane) {
                let dump = try? ChildProcess.runBlocking(stack, ["-p", "\(pid)"], timeout: .seconds(20))
                text += "eu-stack -p \(pid):\n" + (dump.map { $0.stdoutText + $0.stderrText } ?? "(failed)\n")
            }
            return text
        }

        func file(_ name: String) -> String? {
            try? String(contentsOfFile: directory.file(name), encoding: .utf8)
        }

        deinit {
            _ = try? run(["kill-server"])
            directory.remove()
        }
    }
}
