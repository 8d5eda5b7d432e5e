import AliciaJSON
import AliciaLocks
import Testing
@testable import AliciaControlClient

/// `ctl`: what a command line sends, and how a reply's data prints for a shell.
@Suite struct CtlCommandTests {
    @Test func shorthandsBecomeMpvCommands() {
        #expect(CtlCommand.command(["get", "time-pos"]) == [.string("get_property"), .string("time-pos")])
        #expect(CtlCommand.command(["set", "volume", "50"]) == [.string("set_property"), .string("volume"), .number(50)])
        #expect(CtlCommand.command(["pause"]) == [.string("set_property"), .string("pause"), .bool(true)])
        #expect(CtlCommand.command(["resume"]) == [.string("set_property"), .string("pause"), .bool(false)])
        #expect(CtlCommand.command(["toggle"]) == [.string("cycle"), .string("pause")])
        #expect(CtlCommand.command(["next"]) == [.string("playlist-next")])
        #expect(CtlCommand.command(["prev"]) == [.string("playlist-prev")])
        // Guards issue 22: ctl's seek and set time-pos took only mpv's numbers; they take the
        // script forms now, and volume +5 is relative (it set 5 %).
        #expect(CtlCommand.command(["seek", "-10"]) == [.string("seek"), .number(-10), .string("relative")])
        #expect(CtlCommand.command(["seek", "+30"]) == [.string("seek"), .number(30), .string("relative")])
        #expect(CtlCommand.command(["seek", "1:45:00"]) == [.string("seek"), .number(6300), .string("absolute")])
        #expect(CtlCommand.command(["seek", "50%"]) == [.string("seek"), .number(50), .string("absolute-percent")])
        #expect(CtlCommand.command(["seek", "30", "relative"]) == [.string("seek"), .number(30), .string("relative")])
        #expect(CtlCommand.command(["set", "time-pos", "1:00"]) == [.string("seek"), .number(60), .string("absolute")])
        #expect(CtlCommand.command(["set", "time-pos", "90"]) == [.string("set_property"), .string("time-pos"), .number(90)])
        #expect(CtlCommand.command(["volume", "+5"]) == [.string("add"), .string("volume"), .number(5)])
        #expect(CtlCommand.command(["volume", "-5"]) == [.string("add"), .string("volume"), .number(-5)])
        #expect(CtlCommand.command(["volume", "40"]) == [.string("set_property"), .string("volume"), .number(40)])
        #expect(CtlCommand.command(["speed", "+0.25"]) == [.string("add"), .string("speed"), .number(0.25)])
        #expect(CtlCommand.command(["mute"]) == [.string("cycle"), .string("mute")])
        #expect(CtlCommand.command(["mute", "off"]) == [.string("set_property"), .string("mute"), .bool(false)])
        #expect(CtlCommand.command(["cycle", "loop-playlist"]) == [.string("cycle"), .string("loop-playlist")])
        #expect(CtlCommand.command(["loadfile", "dir/a.wav"], directory: "/home/x") == [.string("loadfile"), .string("/home/x/dir/a.wav")])
        #expect(CtlCommand.command(["loadfile", "/srv/a.wav"], directory: "/home/x") == [.string("loadfile"), .string("/srv/a.wav")])
        #expect(CtlCommand.command(["loadfile", "http://h/a.wav"], directory: "/home/x") == [.string("loadfile"), .string("http://h/a.wav")])
        #expect(CtlCommand.command(["loadfile", "S1E02", "append"]) == [.string("loadfile"), .string("S1E02"), .string("append")])
        // A label that reads as a number stays what it is to the player (loadfile takes its text).
        #expect(CtlCommand.command(["say", "hello there"]) == [.string("say"), .string("hello there")])
    }

    @Test func dataPrintsForAShell() {
        #expect(CtlCommand.text(.number(83.421_342)) == "83.42")
        #expect(CtlCommand.text(.number(52)) == "52")
        #expect(CtlCommand.text(.number(-1.5)) == "-1.5")
        #expect(CtlCommand.text(.bool(true)) == "yes")
        #expect(CtlCommand.text(.string("S1E02 · Night")) == "S1E02 · Night")
        #expect(CtlCommand.text(.null) == nil)
        #expect(CtlCommand.text(.array([.number(1)])) == "[1]")
        // Guards issue 22: loadfile's reply printed as JSON.
        #expect(CtlCommand.text(.object([.init("playlist_entry_id", .number(3))])) == "playlist_entry_id=3")
    }

    @Test func eventsPrintAsWords() {
        let event = JSONValue.object([.init("event", .string("end-file")), .init("reason", .string("eof")), .init("playlist_entry_id", .number(3))])
        #expect(CtlCommand.eventLine("end-file", event) == "end-file reason=eof playlist_entry_id=3")
    }

    @Test func shorthandsAreCheckedBeforeConnecting() throws {
        #expect(CtlCommand.check(["get"]) != nil)
        #expect(CtlCommand.check(["seek", "soon"]) != nil)
        #expect(CtlCommand.check(["seek", "-10"]) == nil)
        #expect(CtlCommand.check(["pause", "now"]) != nil)
        #expect(CtlCommand.check(["quit", "4"]) == nil)
    }

    @Test func ctlOptionsComeBeforeTheCommand() throws {
        #expect(throws: UsageError.self) { try CtlOptions.parse([]) }
        #expect(throws: UsageError.self) { try CtlOptions.parse(["--bogus", "get", "pause"]) }
        #expect(throws: UsageError.self) { try CtlOptions.parse(["--ipc", "/a", "--player", "b", "pause"]) }
        #expect(try CtlOptions.parse(["--ipc=/tmp/s", "--json", "seek", "-5"]) == CtlOptions(ipcPath: "/tmp/s", json: true, words: ["seek", "-5"]))
        #expect(try CtlOptions.parse(["--player", "7", "--", "pause"]) == CtlOptions(player: "7", words: ["pause"]))
        #expect(try CtlOptions.parse(["-h"]) == nil)
    }
}
