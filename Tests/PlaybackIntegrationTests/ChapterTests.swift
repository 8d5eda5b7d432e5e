import AliciaTestSupport
import Foundation
import Testing

/// Tags and chapters as the front ends show them: the socket (from Python, as a third-party client
/// would), `ctl`, scripts and MPRIS (playerctl on a private bus), for an MP3 with an ID3v2 tag and
/// three CHAP chapters and a WAV with three cue points and their labels, playing into captures.
@Suite("Tags and chapters")
struct ChapterTests {
    /// 4 s, cue points at 0, 1 and 2.5 s labelled Intro, Middle and Outro.
    static func cueWAV() -> [UInt8] {
        let wav = WAVFixture(seconds: 4, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 0xD1)
        return PodcastFixture.withCuePoints(wav.bytes, cues: [(0, "Intro"), (48_000, "Middle"), (120_000, "Outro")])
    }

    /// The socket driver of the chapters test (run after `SocketDriver.client`).
    static let driver = #"""
        path, wavname = sys.argv[1:3]

        c = Client()

        def until(name, wanted):
            """Waits (a hang guard) until `name` reads `wanted`."""
            for _ in range(400):
                r = c.ask("get_property", name)
                if r["error"] == "success" and r.get("data") == wanted:
                    return
                time.sleep(0.05)
            raise AssertionError(f"{name} never read {wanted!r}: {r}")

        def lands(low, high):
            """Waits (a hang guard) until the seek asked for is carried out; the position is then in [low, high)."""
            for _ in range(200):
                p = c.ok("get_property", "time-pos")
                if p is not None and low <= p < high:
                    return p
                time.sleep(0.05)
            raise AssertionError(f"time-pos {p} is not in [{low}, {high})")

        until("chapters", 3)
        c.ok("set_property", "pause", True)
        # Twice the speed: chapter times stay in the item's own time.
        c.ok("set_property", "speed", 2)
        assert c.ok("get_property", "media-title") == "Chaptered Episode"
        metadata = c.ok("get_property", "metadata")
        assert metadata == {"title": "Chaptered Episode", "artist": "The Tuesday Show", "album": "Season 3",
                            "date": "2024", "comment": "Notes for the episode"}, metadata
        chapters = c.ok("get_property", "chapter-list")
        assert chapters == [{"title": "Cold open", "time": 0}, {"title": "The interview", "time": 4},
                            {"title": "Listener mail", "time": 9.5}], chapters

        watcher = Client()
        watcher.ok("observe_property", 5, "chapter")
        assert watcher.event("property-change", id=5)["data"] == 0

        # set_property chapter 2: the third chapter's start, to the frame (a 32 kb/s CBR MP3).
        c.ok("set_property", "chapter", 2)
        p = lands(9.5, 9.6)
        assert abs(p - 9.5) < 0.001, p
        assert c.ok("get_property", "chapter") == 2
        assert watcher.event("property-change", id=5)["data"] == 2
        # Within 3 s of its start, -1 is the chapter before; +1 from there the next again.
        c.ok("add", "chapter", -1)
        assert abs(lands(4, 4.1) - 4) < 0.001
        assert watcher.event("property-change", id=5)["data"] == 1
        c.ok("add", "chapter", 1)
        lands(9.5, 9.6)
        # Past the last, and a chapter that is not there: refused, nothing moves.
        assert c.ask("add", "chapter", 1)["error"] != "success"
        assert c.ask("set_property", "chapter", 3)["error"] != "success"
        assert c.ask("set_property", "chapter", "x")["error"] == "unsupported format for accessing property"
        assert c.ok("get_property", "chapter") == 2

        # The WAV: chapters from its cue points, named by their labels; no tags, so its file name.
        c.ok("playlist-next")
        until("media-title", wavname)
        until("chapters", 3)
        chapters = c.ok("get_property", "chapter-list")
        assert chapters == [{"title": "Intro", "time": 0}, {"title": "Middle", "time": 1}, {"title": "Outro", "time": 2.5}], chapters
        assert c.ok("get_property", "metadata") == {"title": wavname}
        c.ok("set_property", "pause", True)
        c.ok("set_property", "chapter", 2)
        assert abs(lands(2.5, 2.6) - 2.5) < 0.001
        assert c.ok("get_property", "chapter") == 2
        c.ok("quit")
        print("ok")
        """#

    @Test("the socket: media-title, metadata, chapter-list and chapters of an ID3-tagged MP3 and a WAV with cue points; set_property chapter 2 lands on the third chapter's start; add chapter ±1; observers hear the chapter change")
    func socketChapters() async throws {
        try TestEnvironment.requirePulseAudio()
        try ControlSocketTests.requireTools(["python3", "ffmpeg"])
        let directory = try TemporaryDirectory(prefix: "chapters")
        let mp3 = directory.file("chapters.mp3")
        try FileManager.default.copyItem(atPath: try await PodcastFixture.mp3(seconds: 14, tags: PodcastFixture.Tags()), toPath: mp3)
        let wav = try directory.write(Self.cueWAV(), as: "cues.wav")
        try await SocketDriver.run(Self.driver, playing: [mp3, wav], with: ["cues.wav"], in: directory)
    }

    @Test("MPRIS: xesam:title, xesam:artist and xesam:album from the ID3 tag, mpris:artUrl the cover extracted to the cache; a WAV with no tags has no artist")
    func mprisTags() async throws {
        try TestEnvironment.requirePulseAudio()
        try ControlSocketTests.requireTools(["dbus-daemon", "playerctl", "ffmpeg"])
        let directory = try TemporaryDirectory(prefix: "mpris-tags")
        let mp3 = directory.file("chapters.mp3")
        try FileManager.default.copyItem(atPath: try await PodcastFixture.mp3(seconds: 14, tags: PodcastFixture.Tags()), toPath: mp3)
        let wav = try directory.write(Self.cueWAV(), as: "cues.wav")
        let socket = directory.file("socket")
        let bus = try await ChildProcess.run("dbus-daemon", ["--session", "--print-address=1", "--print-pid=1", "--fork", "--nopidfile"], timeout: .seconds(30))
        let printed = bus.stdoutText.split(separator: "\n").map(String.init)
        try TestEnvironment.require(bus.status == 0 && printed.count >= 2, "dbus-daemon did not start: \(bus.stderrText)")
        defer { if let pid = pid_t(printed[1]) { kill(pid, SIGTERM) } }
        let cache = directory.file("cache")
        let environment = ["DBUS_SESSION_BUS_ADDRESS": printed[0], "XDG_CACHE_HOME": cache]
        func metadata() async throws -> String {
            let format = "{{xesam:title}}|{{xesam:artist}}|{{xesam:album}}|{{mpris:artUrl}}"
            let result = try await ChildProcess.run("playerctl", ["-p", "alicia_player", "metadata", "--format", format],
                                                    environment: environment, timeout: .seconds(30))
            return result.stdoutText.trimmingCharacters(in: .newlines)
        }
        /// Waits (a hang guard) until the metadata reads as `wanted` says.
        func metadata(where wanted: (String) -> Bool) async throws -> String {
            var seen = try await metadata()
            for _ in 0..<100 where !wanted(seen) {
                try await Task.sleep(for: .milliseconds(100))
                seen = try await metadata()
            }
            return seen
        }
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        try await Playback.gated {
            let player = try PlayerProcess.start(["play", mp3, wav, "--ipc", socket, "--device", capture.sinkName], environment: environment)
            try await ControlSocketTests.waitForSocket(socket, player: player)
            let tagged = try await metadata { $0.hasPrefix("Chaptered Episode|") }
            let fields = tagged.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            #expect(fields.count == 4 && fields[0] == "Chaptered Episode" && fields[1] == "The Tuesday Show" && fields[2] == "Season 3"
                    && fields[3].hasPrefix("file://\(cache)/alicia-player/art/") && fields[3].hasSuffix(".png"), "\(tagged)")
            if fields.count == 4, fields[3].hasPrefix("file://") {
                let art = String(fields[3].dropFirst("file://".count))
                #expect(FileManager.default.contents(atPath: art).map(Array.init) == (try await PodcastFixture.coverBytes()), "\(art)")
            }
            // Next stays the next item: the WAV, with nothing known of its artist or album.
            #expect(try await ChildProcess.run("playerctl", ["-p", "alicia_player", "next"], environment: environment, timeout: .seconds(30)).status == 0)
            let plain = try await metadata { $0.hasPrefix("cues.wav|") }
            #expect(plain == "cues.wav|||", "\(plain)")
            #expect(try await ControlSocketTests.ctl(socket, ["quit"]).status == 0)
            let result = try await PlayerProcess.result(of: player, timeout: .seconds(30))
            #expect(result.status == 0, "\(result)")
        }
        _ = await capture.finish(quietFor: .milliseconds(200))
    }

    @Test("a script's chapter +1 twice right after play lands on the third chapter (presses add up); ctl chapter list, prev, next and N")
    func scriptAndCtl() async throws {
        try TestEnvironment.requirePulseAudio()
        try ControlSocketTests.requireTools(["ffmpeg"])
        let directory = try TemporaryDirectory(prefix: "chapters-ctl")
        let mp3 = directory.file("chapters.mp3")
        try FileManager.default.copyItem(atPath: try await PodcastFixture.mp3(seconds: 14, tags: PodcastFixture.Tags()), toPath: mp3)
        let script = try directory.write(Array("play chapters.mp3\npause\nchapter +1\nchapter +1\nwait end\n".utf8), as: "run.txt")
        let socket = directory.file("socket")
        func ctl(_ words: String...) async throws -> PlayerResult { try await ControlSocketTests.ctl(socket, words) }
        /// Waits (a hang guard) until `ctl get NAME` prints `wanted`.
        func until(_ name: String, _ wanted: String) async throws -> String {
            var seen = try await ctl("get", name).stdout
            for _ in 0..<100 where seen != wanted + "\n" {
                try await Task.sleep(for: .milliseconds(50))
                seen = try await ctl("get", name).stdout
            }
            return seen
        }
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        try await Playback.gated {
            let player = try PlayerProcess.start(["script", script, "--ipc", socket, "--device", capture.sinkName])
            try await ControlSocketTests.waitForSocket(socket, player: player)
            #expect(try await until("chapter", "2") == "2\n")
            #expect(try await until("time-pos", "9.5") == "9.5\n")
            let list = try await ctl("chapter", "list")
            #expect(list.status == 0 && list.stdout == "0  0:00  Cold open\n1  0:04  The interview\n2  0:09  Listener mail\n", "\(list)")
            #expect(try await ctl("chapter", "prev").status == 0)
            #expect(try await until("time-pos", "4") == "4\n")
            #expect(try await ctl("chapter", "next").status == 0)
            #expect(try await until("chapter", "2") == "2\n")
            #expect(try await ctl("chapter", "0").status == 0)
            #expect(try await until("time-pos", "0") == "0\n")
            let last = try await ctl("chapter", "7")
            #expect(last.status == 1 && last.stderr.contains("chapter"), "\(last)")
            let bad = try await ctl("chapter", "sideways")
            #expect(bad.status == 2, "\(bad)")
            #expect(try await ctl("quit").status == 0)
            let result = try await PlayerProcess.result(of: player, timeout: .seconds(30))
            #expect(result.status == 0, "\(result)")
        }
        _ = await capture.finish(quietFor: .milliseconds(200))
    }

    /// At 1×, from 0.5 s: the chapter ends at 2 s (72,000 frames, to the frame); at 2×, from
    /// 2.5 s: at 4 s of the item, 36,000 frames of playing, within the tempo stage's latency.
    @Test("--sleep chapter: the fade ends where the chapter does, in the item's own time, at 1x and 2x; exit 0",
          arguments: [(1.0, 0.5, 72_000, 16), (2.0, 2.5, 36_000, 1_024)])
    func sleepAtChapterEnd(_ speed: Double, _ start: Double, _ expected: Int, _ slack: Int) async throws {
        let directory = try TemporaryDirectory(prefix: "chapters-sleep")
        let tone = Tone.wav(frequency: 1000, seconds: 6, rate: 48_000, channels: 2, amplitude: 0.5)
        let path = try directory.write(PodcastFixture.withCuePoints(tone, cues: [(0, "One"), (96_000, "Two"), (192_000, "Three")]), as: "tone.wav")
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        let result = try await Playback.run(["play", path, "--device", capture.sinkName, "--sleep", "chapter",
                                             "--start", "\(start)", "--speed", "\(speed)"])
        expectSuccess(result)
        let heard = AudioCompare.trimmingSilentFrames(await capture.finishInt16(), channels: 2)
        // The fade's last frames round to 0 and are trimmed with the sink's silence.
        let frames = heard.count / 2
        #expect(abs(frames - expected) <= slack, "\(frames) frames played, \(expected) expected")
    }

    /// Chapter 0: a 440 Hz tone, 2 s of silence, the tone again (0–4 s); chapter 1: 1 kHz (4–6 s).
    @Test("--sleep chapter with --skip-silence strong: the pause is shortened and it still ends on chapter 0's last tone, none of chapter 1 heard")
    func sleepAtChapterEndSkippingSilence() async throws {
        let rate = 48_000
        let a = Tone.samples(frequency: 440, seconds: 1, rate: rate, channels: 2, amplitude: 0.5)
        let b = Tone.samples(frequency: 1000, seconds: 2, rate: rate, channels: 2, amplitude: 0.5)
        let samples = a + [Int16](repeating: 0, count: 2 * 2 * rate) + a + b
        func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        func le16(_ v: Int) -> [UInt8] { (0..<2).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        let data = samples.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] }
        let wav = Array("RIFF".utf8) + le32(36 + data.count) + Array("WAVEfmt ".utf8) + le32(16) + le16(1) + le16(2)
            + le32(rate) + le32(rate * 4) + le16(4) + le16(16) + Array("data".utf8) + le32(data.count) + data
        let directory = try TemporaryDirectory(prefix: "chapters-skip")
        let path = try directory.write(PodcastFixture.withCuePoints(wav, cues: [(0, "Pause"), (UInt32(4 * rate), "High")]), as: "pause.wav")
        let capture = try await PipeSinkCapture(format: .s16le, rate: rate, channels: 2)
        let result = try await Playback.run(["play", path, "--device", capture.sinkName, "--sleep", "chapter", "--skip-silence=strong"])
        expectSuccess(result)
        let heard = AudioCompare.trimmingSilentFrames(await capture.finishInt16(), channels: 2)
        let frames = heard.count / 2
        // 2 s of tone and what is kept of the pause: at least a second of it skipped.
        #expect(frames >= 2 * rate - 480 && frames <= 3 * rate, "\(frames) frames heard")
        // The last 100 ms heard (the fade's quiet end) are the 440 Hz tone, not chapter 1's 1 kHz.
        let scaled = heard.map { Double($0) / 32768 }
        let start = max(0, frames - rate / 10 - 480)
        let low = Tone.level(scaled, channels: 2, from: start, frames: rate / 10, frequency: 440, rate: rate)
        let high = Tone.level(scaled, channels: 2, from: start, frames: rate / 10, frequency: 1000, rate: rate)
        #expect(low > high + 20, "440 Hz at \(low) dB, 1 kHz at \(high) dB at the end")
    }

    @Test("the Studio: the tag's title and the chapter heard in the panel, chapter marks on the bar, PgDn and PgUp jump chapters, c lists them and enter jumps")
    func studioChapters() async throws {
        try await Playback.gated {
            try StudioTests.requireTmux()
            let directory = try TemporaryDirectory(prefix: "studio-chapters")
            let mp3 = directory.file("chapters.mp3")
            try FileManager.default.copyItem(atPath: try await PodcastFixture.mp3(seconds: 14, tags: PodcastFixture.Tags()), toPath: mp3)
            let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
            let player = try PlayerProcess.executablePath()
            let tmux = try StudioTests.Tmux(command: "'\(player)' play '\(mp3)' --device \(capture.sinkName)", environment: try StudioTests.environment())
            var screen = try await tmux.waitFor("the tagged title and the first chapter") {
                $0.contains("Chaptered Episode · The Tuesday Show") && $0.contains("ch 1/3 Cold open")
            }
            try tmux.keys("Space")
            _ = try await tmux.waitFor("paused") { $0.contains("paused") }
            // Back to the start, paused: a loaded machine may have played past 4 s before the pause
            // came (a fresh-clone run's PgDn then went from the second chapter to the third).
            try tmux.keys("0")
            _ = try await tmux.waitFor("the first chapter, paused") { $0.contains("ch 1/3 Cold open") && $0.contains("paused") }
            // 4 s and 9.5 s of 14 s: two marks on the bar.
            let bar = screen.split(separator: "\n").first { $0.contains("▕") }.map(String.init) ?? ""
            #expect(bar.filter { $0 == "│" }.count == 2, "\(bar)")
            try tmux.keys("NPage")
            _ = try await tmux.waitFor("the second chapter") { $0.contains("ch 2/3 The interview") }
            try tmux.keys("NPage")
            _ = try await tmux.waitFor("the third chapter") { $0.contains("ch 3/3 Listener mail") }
            try tmux.keys("PPage")
            _ = try await tmux.waitFor("back to the second") { $0.contains("ch 2/3 The interview") }
            try tmux.keys("c")
            screen = try await tmux.waitFor("the chapter list") { $0.contains("Chapters · 3") && $0.contains("▶ 0:04  The interview") }
            #expect(screen.contains("0:00  Cold open") && screen.contains("0:09  Listener mail"), "\(screen)")
            try tmux.keys("Down")
            try tmux.keys("Enter")
            _ = try await tmux.waitFor("the third from the list") { $0.contains("ch 3/3 Listener mail") && $0.contains("▶ 0:09  Listener mail") }
            try tmux.keys("Escape")
            _ = try await tmux.waitFor("the list closed") { !$0.contains("Chapters · 3") }
            try tmux.keys("q")
            #expect(try await StudioTests.status(tmux) == "0", "\(tmux.screen())")
            _ = await capture.finish(quietFor: .milliseconds(200))
        }
    }
}
