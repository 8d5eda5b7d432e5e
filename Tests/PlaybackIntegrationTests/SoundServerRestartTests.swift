import AliciaLocks
import AliciaTestSupport
import Foundation
import Testing

/// PulseAudio killed and started again while an episode plays: the player holds its place, says
/// so, and plays on from there on the new server by itself.
@Suite("A restarted sound server")
struct SoundServerRestartTests {
    /// A PulseAudio of the test's own, which it kills and starts again on the same socket. Starting
    /// and stopping it wait (for the daemon to answer, for it to be reaped), so they run off the Swift
    /// concurrency threads: two tests blocking both of a two-core machine's threads stalled every
    /// other test of the suite for 20 s (a fresh-clone run: players ran to their end before the
    /// signals their tests meant to send).
    final class OwnPulse: Sendable {
        let directory: TemporaryDirectory
        private let process = Locked<ChildProcess?>(nil)
        var socket: String { directory.file("native") }
        var server: String { "unix:" + socket }

        private init() throws {
            directory = try TemporaryDirectory(prefix: "own-pulse")
            for name in ["runtime", "home", "home/.config", "home/.config/pulse"] {
                mkdir(directory.file(name), 0o700)
            }
            try "rlimit-nofile = 4096\n".write(toFile: directory.file("home/.config/pulse/daemon.conf"), atomically: true, encoding: .utf8)
        }

        /// A daemon, running and answering.
        static func started() async throws -> OwnPulse {
            let pulse = try OwnPulse()
            try await pulse.start()
            return pulse
        }

        /// Starts the daemon, with `loading` (`-L` lines: a capture's sink) in it from the first client on.
        func start(loading: [String] = []) async throws {
            try await BlockingWork.run { try self.startBlocking(loading: loading) }
        }

        func kill() async {
            await BlockingWork.run { self.killBlocking() }
        }

        private func startBlocking(loading: [String]) throws {
            let child = try ChildProcess("pulseaudio", [
                "-n", "--daemonize=no", "--use-pid-file=no", "--system=no", "--exit-idle-time=-1", "--disallow-exit",
                "--realtime=no", "--high-priority=no", "--log-target=file:\(directory.file("pulse.log"))",
                "-L", "module-native-protocol-unix auth-anonymous=1 socket=\(socket)",
                "-L", "module-null-sink sink_name=own_null",
            ] + loading.flatMap { ["-L", $0] }, environment: ["HOME": directory.file("home"), "XDG_RUNTIME_DIR": directory.file("runtime")])
            process.withLock { $0 = child }
            // A hang guard while it comes up.
            for _ in 0..<100 {
                if let info = try? ChildProcess.runBlocking("pactl", ["--server=\(server)", "info"], timeout: .seconds(5)), info.status == 0 { return }
                guard child.isRunning else { break }
                usleep(100_000)
            }
            throw HarnessError("the test's own PulseAudio did not come up: \((try? String(contentsOfFile: directory.file("pulse.log"), encoding: .utf8)) ?? "")")
        }

        /// Kills it and waits until it is reaped: blocking, for a capture's own thread.
        func killBlocking() {
            let child = process.withLock { $0 }
            child?.send(SIGKILL)
            _ = child?.waitBlocking(timeout: .seconds(10))
            unlink(socket)
            killed.withLock { $0 += 1 }
        }

        /// How many times it has been killed.
        let killed = Locked(0)

        deinit {
            // Without waiting: its reader thread reaps it.
            process.withLock { $0 }?.send(SIGKILL)
            unlink(socket)
        }
    }

    @Test("PulseAudio killed mid-episode and started again: no sound server, then on from the frame held")
    func restartDuringAnEpisode() async throws {
        try TestEnvironment.require((try? ChildProcess.resolve("pulseaudio")) != nil, "pulseaudio is needed (scripts/test installs it)")
        let pulse = try await OwnPulse.started()
        let fixture = WAVFixture(seconds: 6, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 0xF1)
        let directory = try TemporaryDirectory(prefix: "restart")
        let path = try directory.write(fixture.bytes, as: "episode.wav")
        let socket = directory.file("socket")
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2, server: pulse.server)
        let (result, state) = try await Playback.gated { () async throws -> (PlayerResult, String) in
            let player = try PlayerProcess.start(["play", path, "--ipc", socket, "--device", capture.sinkName],
                                                 environment: ["PULSE_SERVER": pulse.server])
            // Killed a second into the episode, counted in frames out of the sink by the capture's own
            // thread (a test task sleeping a second can wake after the 6 s episode on a busy run).
            capture.whenAudible(frames: 48_000) { pulse.killBlocking() }
            let deadline = ContinuousClock.now + .seconds(60) * TestEnvironment.hangGuardScale
            while pulse.killed.withLock({ $0 }) == 0 {
                guard player.isRunning, ContinuousClock.now < deadline else { throw HarnessError("the episode never reached 1 s: \(player.commandLine)") }
                try await Task.sleep(for: .milliseconds(20))
            }
            // While it is gone, the player holds its place and says which server it tries.
            var status = ""
            for _ in 0..<50 {
                status = try await PlayerProcess.run(["ctl", "--ipc", socket, "status"]).stdout
                if status.hasPrefix("buffering") { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            try await Task.sleep(for: .seconds(2))
            // The sink is in the daemon before any client can connect: the player, retrying all
            // along, finds its device at once.
            try await pulse.start(loading: [capture.moduleLoadLine])
            try capture.adoptReloadedModule()
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

    @Test("the sink played on goes away: the server moves the stream to the default sink, the player says so and plays on")
    func sinkGoesAway() async throws {
        try TestEnvironment.require((try? ChildProcess.resolve("pulseaudio")) != nil, "pulseaudio is needed (scripts/test installs it)")
        let pulse = try await OwnPulse.started()
        let fixture = WAVFixture(seconds: 5, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 0x5F1)
        let directory = try TemporaryDirectory(prefix: "unplug")
        let path = try directory.write(fixture.bytes, as: "episode.wav")
        let chosen = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2, server: pulse.server)
        let fallback = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2, server: pulse.server)
        _ = try await ChildProcess.run("pactl", ["--server=\(pulse.server)", "set-default-sink", fallback.sinkName])
        let (result, first) = try await Playback.gated { () async throws -> (PlayerResult, [Int16]) in
            let player = try PlayerProcess.start(["play", path, "--device", chosen.sinkName], environment: ["PULSE_SERVER": pulse.server])
            // Unplugged once 1.5 s have been heard, from the capture's own thread: the sink goes (and
            // what it had taken and not yet let out). A test task that waited for audio and slept a
            // second was late by the whole file in a loaded suite, and nothing was left to move.
            chosen.unplug(afterAudible: 72_000)
            return (try await PlayerProcess.result(of: player, timeout: .seconds(60)), await chosen.finishInt16(quietFor: .zero))
        }
        let second = ScriptCommandTests.withoutSilentFrames(await fallback.finishInt16())
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("sink '\(chosen.sinkName)' is gone (or the stream was moved): playing on '\(fallback.sinkName)'"),
                "\(result.stderr)")
        // The chosen sink heard the start up to a frame a, the default one the rest from a frame b to
        // the end. What the first sink had taken and not yet let out when it went is lost with it
        // (its own buffer: a few tens of milliseconds, more on a loaded machine): nothing else, and
        // nothing heard twice.
        let samples = fixture.samples16
        let heard = ScriptCommandTests.withoutSilentFrames(first)
        let a = heard.count / 2
        #expect(a > 24_000 && Array(samples.prefix(heard.count)) == heard, "the first sink heard \(a) frames, not the episode's start")
        let b = fixture.frameCount - second.count / 2
        #expect(b < fixture.frameCount - 48_000, "the default sink heard only \(second.count / 2) frames")
        #expect(b >= a && b - a <= 48_000, "the default sink went on from frame \(b), the first stopped at \(a)")
        if b >= 0 && b < fixture.frameCount {
            #expect(Array(samples[(b * 2)...]) == second, "the rest is not the episode from frame \(b) to its end")
        }
    }

    @Test("PulseAudio killed during a voice note and started again: the note plays on from its held frame, then the episode from its own")
    func restartDuringAVoiceNote() async throws {
        try TestEnvironment.require((try? ChildProcess.resolve("pulseaudio")) != nil, "pulseaudio is needed (scripts/test installs it)")
        let pulse = try await OwnPulse.started()
        let episode = WAVFixture(seconds: 3, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 0xE91)
        let note = WAVFixture(seconds: 4, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 0x4073)
        let directory = try TemporaryDirectory(prefix: "restart-note")
        let episodePath = try directory.write(episode.bytes, as: "episode.wav")
        let notePath = try directory.write(note.bytes, as: "note.wav")
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2, server: pulse.server)
        let result = try await Playback.gated { () async throws -> PlayerResult in
            let player = try PlayerProcess.start(["play", episodePath, "--voice-at", "1=" + notePath, "--device", capture.sinkName],
                                                 environment: ["PULSE_SERVER": pulse.server])
            // About a second and a half into the note, which starts at 1 s of the episode: once 2.5 s
            // of sound have come out of the sink, counted in frames by the capture's own thread, which
            // kills the server there. (A test task sleeping 2.5 s from the first sound woke after the
            // whole 4 s note under a sanitizer.)
            capture.whenAudible(frames: 120_000) { pulse.killBlocking() }
            let deadline = ContinuousClock.now + .seconds(60) * TestEnvironment.hangGuardScale
            while pulse.killed.withLock({ $0 }) == 0 {
                guard player.isRunning, ContinuousClock.now < deadline else { throw HarnessError("the note never reached 1.5 s: \(player.commandLine)") }
                try await Task.sleep(for: .milliseconds(20))
            }
            // The outage itself: two seconds without a server.
            try await Task.sleep(for: .seconds(2))
            // The sink is in the daemon before any client can connect: the player, retrying all
            // along, finds its device at once.
            try await pulse.start(loading: [capture.moduleLoadLine])
            try capture.adoptReloadedModule()
            return try await PlayerProcess.result(of: player, timeout: .seconds(60))
        }
        let captured = ScriptCommandTests.withoutSilentFrames(await capture.finishInt16())
        #expect(result.status == 0, "\(result)")
        // episode[..<k] ++ note[..<a] ++ note[b...] ++ episode[k...]: the note goes on from at most half
        // a second before where the killed server stopped (what it had played and could not say), and
        // the episode from the exact frame it was held at.
        let (e, n) = (episode.samples16, note.samples16)
        guard let k = (48_000...60_000).first(where: { k in
            captured.count > k * 2 + 8 && captured[(k * 2)..<(k * 2 + 8)].elementsEqual(n[0..<8])
        }) else {
            Issue.record("the note is not in the capture where it should be")
            return
        }
        #expect(Array(captured[..<(k * 2)]) == Array(e[..<(k * 2)]), "the episode before the note")
        let afterNote = Array(captured[(k * 2)...])
        let a = (AudioCompare.firstMismatch(expected: n, actual: afterNote) ?? afterNote.count) / 2
        #expect(a > 24_000 && a < note.frameCount, "the note's first stretch ends at frame \(a)")
        let tail = Array(e[(k * 2)...])
        let restCount = afterNote.count / 2 - a - tail.count / 2
        let b = note.frameCount - restCount
        #expect(b <= a && a - b <= 24_000, "the note went on from frame \(b) after stopping at \(a)")
        guard b >= 0 && b <= a && restCount > 0 else { return }
        let rest = Array(afterNote[(a * 2)...])
        let noteGoesOn = Array(rest.prefix(restCount * 2)) == Array(n[(b * 2)...])
        #expect(noteGoesOn, "the rest of the note is not the note from frame \(b)")
        let episodeGoesOn = Array(rest.dropFirst(restCount * 2)) == tail
        #expect(episodeGoesOn, "the episode did not go on from the frame it was held at")
    }
}
