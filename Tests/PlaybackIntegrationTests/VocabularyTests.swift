import AliciaTestSupport
import Foundation
import Testing

/// The one vocabulary, as clients that are not ours and scripts use it: a third-party mpv IPC
/// library, socat with a half-closed client, mpv's text command lines, `ctl`'s relative forms, and
/// the mends issue 22 found by trying the product.
@Suite("One transport vocabulary")
struct VocabularyTests {
    static let long = WAVFixture(seconds: 30, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 0xD1)
    static let short = WAVFixture(seconds: 3, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 0xD2)

    /// Where scripts/test installed python-mpv-jsonipc from PyPI (`ALICIA_TEST_PYTHONPATH`).
    static func pythonLibrary() throws -> String {
        let path = ProcessInfo.processInfo.environment["ALICIA_TEST_PYTHONPATH"] ?? ""
        try TestEnvironment.require(!path.isEmpty && access(path + "/python_mpv_jsonipc.py", F_OK) == 0,
                                    "python-mpv-jsonipc is needed (scripts/test installs it from PyPI into .build/python)")
        return path
    }

    static let jsonipcDriver = #"""
        import sys, time
        sys.path.insert(0, sys.argv[2])
        from python_mpv_jsonipc import MPV

        mpv = MPV(start_mpv=False, ipc_socket=sys.argv[1])
        # At connect it built its attributes from property-list and command-list.
        for name in ["time_pos", "pause", "duration", "volume", "mute", "metadata", "time_remaining", "playlist_count"]:
            assert name in mpv.properties, f"{name} is not in property-list"
        assert 0 <= mpv.time_pos < 30, mpv.time_pos
        assert mpv.duration == 30, mpv.duration
        mpv.seek(20, "absolute")
        for _ in range(200):
            if mpv.time_pos >= 20:
                break
            time.sleep(0.05)
        assert mpv.time_pos >= 20, f"the seek did not land: {mpv.time_pos}"
        mpv.pause = True
        assert mpv.pause is True
        # The device stops within its latency of the pause: the position settles, then holds.
        held = mpv.time_pos
        for _ in range(100):
            time.sleep(0.1)
            now = mpv.time_pos
            if now == held:
                break
            held = now
        time.sleep(0.3)
        assert mpv.time_pos == held, f"paused at {held}, then {mpv.time_pos}"
        mpv.mute = True
        assert mpv.mute is True and mpv.volume == 100
        mpv.command("quit")
        mpv.terminate()
        print("ok")
        """#

    @Test("a third-party mpv IPC library (python-mpv-jsonipc, from PyPI) connects, reads time-pos, seeks and pauses")
    func thirdPartyClient() async throws {
        try TestEnvironment.requirePulseAudio()
        try ControlSocketTests.requireTools(["python3"])
        let library = try Self.pythonLibrary()
        let directory = try TemporaryDirectory(prefix: "jsonipc")
        let path = try directory.write(Self.long.bytes, as: "long.wav")
        try await SocketDriver.run(Self.jsonipcDriver, withClient: false, playing: [path], with: [library], in: directory,
                                   timeout: .seconds(60), client: "python-mpv-jsonipc")
    }

    /// socat's one-liner with the client's writing side shut at once (what `echo … | socat -` does).
    static func socat(_ line: String, _ socket: String) async throws -> String {
        let escaped = line.replacingOccurrences(of: "'", with: "'\\''")
        let run = try await ChildProcess.run("/bin/sh", ["-c", "printf '%s\\n' '\(escaped)' | socat -t 5 - UNIX-CONNECT:\(socket)"],
                                             timeout: .seconds(30))
        return run.stdoutText
    }

    /// Guards issue 22: a client that half-closed after writing got no reply to a change
    /// (`set_property volume`, `pause`, `add volume`, `playlist-next` took effect, printed nothing);
    /// text command lines were refused; `property-list` and `command-list` were unknown.
    @Test("socat, half-closed: every change is answered; text command lines work; property-list, command-list and the status-bar properties answer")
    func halfClosedAndTextCommands() async throws {
        try TestEnvironment.requirePulseAudio()
        try ControlSocketTests.requireTools(["socat"])
        let directory = try TemporaryDirectory(prefix: "vocab")
        let a = try directory.write(Self.long.bytes, as: "a.wav")
        let b = try directory.write(Self.short.bytes, as: "b.wav")
        try await SocketPlayer.with([a, b], in: directory) { player in
            let socket = player.socket
            for command in [#"{"command": ["set_property", "volume", 50], "request_id": 1}"#,
                            #"{"command": ["add", "volume", -10], "request_id": 2}"#,
                            #"{"command": ["set_property", "pause", true], "request_id": 3}"#,
                            #"{"command": ["cycle", "mute"], "request_id": 4}"#] {
                let reply = try await Self.socat(command, socket)
                #expect(reply.contains(#""error":"success""#), "\(command): \(reply.debugDescription)")
            }
            #expect(try await Self.socat(#"{"command": ["get_property", "volume"]}"#, socket).contains(#""data":40"#))
            #expect(try await Self.socat(#"{"command": ["get_property", "mute"]}"#, socket).contains(#""data":true"#))
            // mpv's text command lines: no reply on success, the change made.
            #expect(try await Self.socat("cycle pause", socket) == "")
            #expect(try await Self.socat(#"{"command": ["get_property", "pause"]}"#, socket).contains(#""data":false"#))
            #expect(try await Self.socat("no-osd cycle mute", socket) == "")
            #expect(try await Self.socat("bogus-command", socket).contains("unknown command"))
            let properties = try await Self.socat(#"{"command": ["get_property", "property-list"]}"#, socket)
            for name in ["metadata", "time-remaining", "playtime-remaining", "mute", "playlist/count", "playlist-playing-pos",
                         "audio-params", "file-format", "file-size", "seekable", "paused-for-cache", "cache-buffering-state", "shuffle"] {
                #expect(properties.contains("\"\(name)\"") || name == "playlist/count", "\(name) is not listed: \(properties)")
            }
            let commands = try await Self.socat(#"{"command": ["get_property", "command-list"]}"#, socket)
            #expect(commands.contains(#"{"name":"seek","args":"#), "\(commands)")
            #expect(try await Self.socat(#"{"command": ["get_property", "playlist/count"]}"#, socket).contains(#""data":2"#))
            #expect(try await Self.socat(#"{"command": ["get_property", "playlist/1/filename"]}"#, socket).contains("b.wav"))
            #expect(try await Self.socat(#"{"command": ["get_property", "audio-params"]}"#, socket).contains(#""samplerate":48000"#))
            #expect(try await Self.socat(#"{"command": ["get_property", "file-format"]}"#, socket).contains(#""data":"wav""#))
            #expect(try await Self.socat(#"{"command": ["get_property", "metadata"]}"#, socket).contains(#""title":"a.wav""#))
            let next = try await Self.socat(#"{"command": ["playlist-next"], "request_id": 9}"#, socket)
            #expect(next.contains(#""request_id":9,"error":"success""#), "\(next)")
            // No reply to the text line (the player's last events may come before the connection closes).
            let quit = try await Self.socat("quit", socket)
            #expect(!quit.contains("request_id") && !quit.contains("error"), "\(quit)")
            let result = try await player.result()
            #expect(result.status == 0, "\(result)")
        }
    }

    /// Guards issue 22: `ctl volume +5` set 5 %; mute was not in ctl; `ctl seek` took only seconds.
    @Test("ctl: volume +5/-5 are relative, mute switches, seek takes 1:00 and 50%, cycle moves any cyclable property")
    func ctlForms() async throws {
        try TestEnvironment.requirePulseAudio()
        let directory = try TemporaryDirectory(prefix: "vocab")
        let a = try directory.write(Self.long.bytes, as: "a.wav")
        try await SocketPlayer.with([a, "--volume", "50"], in: directory, ready: .opened) { player in
            _ = try await player.ctl("volume", "+5")
            #expect(try await player.ctl("get", "volume") == "55")
            _ = try await player.ctl("volume", "-10")
            #expect(try await player.ctl("get", "volume") == "45")
            _ = try await player.ctl("mute")
            #expect(try await player.ctl("get", "mute") == "yes")
            _ = try await player.ctl("mute", "off")
            #expect(try await player.ctl("get", "mute") == "no")
            // The player takes a seek on its own thread: each is waited for.
            _ = try await player.ctl("pause")
            _ = try await player.ctl("seek", "0:20")
            #expect(try await player.until("time-pos") { $0 == 20 } == 20)
            _ = try await player.ctl("seek", "50%")
            #expect(try await player.until("time-pos") { $0 == 15 } == 15)
            _ = try await player.ctl("set", "time-pos", "0:25")
            #expect(try await player.until("time-pos") { $0 == 25 } == 25)
            _ = try await player.ctl("cycle", "loop-playlist")
            #expect(try await player.ctl("get", "loop-playlist") == "inf")
            _ = try await player.ctl("cycle", "alicia-skip-silence")
            #expect(try await player.ctl("get", "alicia-skip-silence") == "mild")
            _ = try await player.ctl("quit")
            let result = try await player.result()
            #expect(result.status == 0, "\(result)")
        }
    }

    /// Guards issue 22: `p` / `previous` went back to the previous entry from its start, and wrote 0
    /// over its saved position.
    @Test("previous goes back to the entry before where it was left, and its saved position is kept")
    func previousWhereItWasLeft() async throws {
        try TestEnvironment.requirePulseAudio()
        let directory = try TemporaryDirectory(prefix: "vocab")
        let a = try directory.write(Self.long.bytes, as: "a.wav")
        let b = try directory.write(Self.long.bytes, as: "b.wav")
        let state = try PlayerProcess.freshStateDirectory()
        try await SocketPlayer.with([a, b], in: directory, environment: ["XDG_STATE_HOME": state], ready: .opened) { player in
            // Paused before the seek, so a.wav is left exactly where the seek put it, and b.wav stays
            // within its first 3 s, however slow the machine (paused after it, a.wav went on playing
            // while a loaded machine started the `ctl` that paused it: left at 17.5 s).
            _ = try await player.ctl("pause")
            _ = try await player.ctl("seek", "0:10")
            #expect(try await player.until("time-pos") { $0 >= 10 } >= 10)
            _ = try await player.ctl("next")
            #expect(try await player.until("playlist-playing-pos") { $0 == 1 } == 1)
            _ = try await player.ctl("prev")
            #expect(try await player.until("playlist-playing-pos") { $0 == 0 } == 0)
            let resumed = try await player.until("time-pos") { $0 >= 10 }
            #expect(resumed >= 10 && resumed < 10.5, "previous went back to \(resumed) s of a.wav, where it was left (10 s) expected")
            _ = try await player.ctl("quit")
            let result = try await player.result()
            #expect(result.status == 0, "\(result)")
        }
    }

}
