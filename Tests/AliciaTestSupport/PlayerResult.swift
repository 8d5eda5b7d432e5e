import Foundation

/// How one run of `alicia-player` ended and what it printed.
public struct PlayerResult: Sendable, CustomStringConvertible {
    /// The exit status, or 128 + the signal number when a signal ended the process.
    public let status: Int32
    /// The signal that ended the process, nil if it exited.
    public let signal: Int32?
    public let stdout: String
    public let stderr: String
    public let duration: Duration

    public init(_ result: ChildProcess.Result) {
        status = result.status
        signal = result.signal
        stdout = result.stdoutText
        stderr = result.stderrText
        duration = result.duration
    }

    /// stderr split into lines, without the final newline's empty line.
    public var stderrLines: [String] {
        var lines = stderr.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// Ended by a signal other than the SIGINT a Ctrl-C test sends.
    public var crashed: Bool {
        signal != nil && signal != SIGINT
    }

    public var description: String {
        let ending = signal.map { "killed by signal \($0)" } ?? "exit status \(status)"
        return "alicia-player: \(ending) after \(String(format: "%.2f", duration.harnessSeconds)) s; "
            + "stdout: \(stdout.debugDescription); stderr: \(stderr.debugDescription)"
    }
}
