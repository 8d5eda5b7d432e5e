import AliciaTestSupport
import Foundation
import Testing

/// `ctl` never waits forever on a player that cannot answer (stopped with Ctrl-Z, stuck): a status
/// bar that runs `ctl status` would freeze with it.
@Suite("ctl --timeout")
struct CtlTimeoutTests {
    @Test("a stopped player: ctl status gives up after --timeout with one line, exit 3; once it goes on, ctl answers again")
    func aStoppedPlayerIsGivenUpOn() async throws {
        let directory = try TemporaryDirectory(prefix: "ctl-timeout")
        let long = try directory.write(WAVFixture(seconds: 60, sampleRate: 8_000, channels: 1, seed: 0x71).bytes, as: "long.wav")
        try await SocketPlayer.with([long], in: directory, rate: 8_000, channels: 1) { player in
            let socket = player.socket
            player.process.send(SIGSTOP)
            let stopped = try await PlayerProcess.run(["ctl", "--ipc", socket, "--timeout", "1", "status"], timeout: .seconds(30))
            player.process.send(SIGCONT)
            #expect(stopped.status == 3, "\(stopped)")
            let lines = stopped.stderr.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].contains("did not answer within 1.00 s"), "\(stopped.stderr)")
            let answered = try await PlayerProcess.run(["ctl", "--ipc", socket, "status"], timeout: .seconds(30))
            #expect(answered.status == 0 && answered.stdout.contains("long"), "\(answered)")
            let quit = try await PlayerProcess.run(["ctl", "--ipc", socket, "quit"], timeout: .seconds(30))
            #expect(quit.status == 0, "\(quit)")
            let result = try await player.result()
            #expect(result.signal == nil, "\(result)")
        }
    }
}
