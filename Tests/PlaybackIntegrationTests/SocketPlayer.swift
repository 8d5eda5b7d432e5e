#if canImport(Glibc)
import Glibc
#endif
import AliciaTestSupport
import Testing

/// A player with `--ipc` on a capture sink of its own, inside the playback gate: where most tests of
/// the socket and of `ctl` start.
struct SocketPlayer {
    let socket: String
    let process: ChildProcess
    let capture: PipeSinkCapture

    /// When `body` may begin: once the socket answers, or once the first item has opened.
    enum Ready { case socket, opened }

    /// Runs `play ARGUMENTS --ipc SOCKET --device SINK` (the socket in `directory`) into a new
    /// capture of `rate` and `channels`, and `body` once it is `ready`; the capture is finished after.
    static func with<R>(_ arguments: [String], in directory: TemporaryDirectory, environment: [String: String] = [:],
                        rate: Int = 48_000, channels: Int = 2, ready: Ready = .socket,
                        _ body: (SocketPlayer) async throws -> R) async throws -> R {
        let socket = directory.file("socket")
        let capture = try await PipeSinkCapture(format: .s16le, rate: rate, channels: channels)
        let result = try await Playback.gated { () async throws -> R in
            let process = try PlayerProcess.start(["play"] + arguments + ["--ipc", socket, "--device", capture.sinkName], environment: environment)
            switch ready {
            case .socket: try await ControlSocketTests.waitForSocket(socket, player: process)
            case .opened: try await ControlSocketTests.waitForOpened(socket, player: process)
            }
            return try await body(SocketPlayer(socket: socket, process: process, capture: capture))
        }
        _ = await capture.finish(quietFor: .milliseconds(200))
        return result
    }

    /// `ctl WORDS` on this player's socket (expected to succeed), its output trimmed.
    func ctl(_ words: String..., sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let result = try await ControlSocketTests.ctl(socket, words)
        #expect(result.status == 0, "ctl \(words): \(result)", sourceLocation: sourceLocation)
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `property` read again until it `holds` (a hang guard of 200 reads, 50 ms apart): the last
    /// reading either way, -1 when it was not a number.
    func until(_ property: String, _ holds: (Double) -> Bool) async throws -> Double {
        var last = -1.0
        for _ in 0..<200 {
            last = Double(try await ctl("get", property)) ?? -1
            if holds(last) { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        return last
    }

    /// The player's end, within `timeout`.
    func result(timeout: Duration = .seconds(30)) async throws -> PlayerResult {
        try await PlayerProcess.result(of: process, timeout: timeout)
    }
}
