import AliciaTestSupport
import Foundation
import Testing

/// PulseAudio killed and started again while an episode plays: the player holds its place, says
/// so, and plays on from there on the new server by itself.
@Suite("A restarted sound server")
struct SoundServerRestartTests {
    /// A PulseAudio of the test's own, which it kills and starts again on the same socket.
    final class OwnPulse {
        let directory: TemporaryDirectory
        var process: ChildProcess?
        var socket: String { directory.file("native") }
        var server: String { "unix:" + socket }

        init() throws {
            directory = try TemporaryDirectory(prefix: "own-pulse")
            for name in ["runtime", "home", "home/.config", "home/.config/pulse"] {
                mkdir(directory.file(name), 0o700)
            }
            try "rlimit-nofile = 4096\n".write(toFile: directory.file("home/.config/pulse/daemon.conf"), atomically: true, encoding: .utf8)
            try start()
        }

        func start() throws {
            let child = try ChildProcess("pulseaudio", [
                "-n", "--daemonize=no", "--use-pid-file=no", "--system=no", "--exit-idle-time=-1", "--disallow-exit",
                "--realtime=no", "--high-priority=no", "--log-target=file:\(directory.file("pulse.log"))",
                "-L", "module-native-protocol-unix auth-anonymous=1 socket=\(socket)",
                "-L", "module-null-sink sink_name=own_null",
            ], environment: ["HOME": directory.file("home"), "XDG_RUNTIME_DIR": directory.file("runtime")])
            process = child
            // A hang guard while it comes up.
            for _ in 0..<100 {
                if let info = try? ChildProcess.runBlocking("pactl", ["--server=\(server)", "info"], timeout: .seconds(5)), info.status == 0 { return }
                guard child.isRunning else { break }
                usleep(100_000)
            }
            throw HarnessError("the test's own PulseAudio did not come up: \((try? String(contentsOfFile: directory.file("pulse.log"), encoding: .utf8)) ?? "")")
        }

        func kill() {
            process?.send(SIGKILL)
            _ = process?.waitBlocking(timeout: .seconds(10))
            unlink(socket)
        }

        deinit { kill() }
    }

    @Test("PulseAudio killed mid-episode and started again: no sound server, then on from the frame held")
    func restartDuringAnEpisode() async throws {
        try TestEnvironment.require((try? ChildProcess.resolve("pulseaudio")) != nil, "pulseaudio is needed (scripts/test installs it)")
        let pulse = try OwnPulse()
        let fixture = WAVFixture(seconds: 6, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 0xF1)
        let directory = try TemporaryDirectory(prefix: "restart")
        let path = try directory.write(fixture.bytes, as: "episode.wav")
        let socket = directory.file("socket")
        let capture = try PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2, server: pulse.server)
        let (result, state) = try await Playback.gated { () async throws -> (PlayerResult, String) in
            let player = try PlayerProcess.start(["play", path, "--ipc", socket, "--device", capture.sinkName],
                                                 environment: ["PULSE_SERVER": pulse.server])
            #expect(await capture.waitForAudio(timeout: .seconds(30)), "no audio")
            try await Task.sleep(for: .seconds(1))
            pulse.kill()
            // While it is gone, the player holds its place and says which server it tries.
            var status = ""
            for _ in 0..<50 {
                status = try await PlayerProcess.run(["ctl", "--ipc", socket, "status"]).stdout
                if status.hasPrefix("buffering") { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            try await Task.sleep(for: .seconds(2))
            try pulse.start()
            try capture.loadAgain()
            return (try await PlayerProcess.result(of: player, timeout: .seconds(60)), status)
        }
        let captured = ScriptCommandTests.withoutSilentFrames(await capture.finishInt16())
        #expect(result.status == 0, "\(result)")
        #expect(state.hasPrefix("buffering "), "while the server was gone: \(state)")
        // The capture is the episode's start up to some frame a, then the episode again from a frame
        // b at most half a second before a (what the killed server had played and could not say),
        // to its end: nothing else, nothing lost.
        let samples = fixture.samples16
        let a = (AudioCompare.firstMismatch(expected: samples, actual: captured) ?? captured.count) / 2
        #expect(a > 48_000 && a < fixture.frameCount, "the first stretch ends at frame \(a)")
        guard a > 0 && a < fixture.frameCount, captured.count > a * 2 else { return }
        let rest = Array(captured[(a * 2)...])
        let restFrames = rest.count / 2
        let b = fixture.frameCount - restFrames
        #expect(b <= a && a - b <= 24_000, "went on from frame \(b) after stopping at \(a)")
        if b >= 0 && b <= a {
            let same = Array(samples[(b * 2)...]) == rest
            #expect(same, "the rest is not the episode from frame \(b)")
        }
    }
}
