import AliciaJSON
import AliciaLocks
import Testing
@testable import AliciaControlClient

/// `ctl`: what a command line sends, and how a reply's data prints for a shell.
@Suite struct CtlCommandTests {
    private func line(_ words: [String], directory: String? = nil) -> [String] {
        CtlCommand.commands(words, directory: directory).first?.compactMap(\.stringValue) ?? []
    }

    /// ctl's words are lines of the one grammar: aliases expand to the socket's command lines, sent
    /// as the text protocol sends them (words as strings); everything else goes as it is.
    @Test func shorthandsAreAliasesOfSocketLines() {
        #expect(line(["get", "time-pos"]) == ["get_property", "time-pos"])
        #expect(line(["set", "volume", "50"]) == ["set", "volume", "50"])
        #expect(line(["pause"]) == ["set_property", "pause", "yes"])
        #expect(line(["resume"]) == ["set_property", "pause", "no"])
        #expect(line(["play"]) == ["set_property", "pause", "no"])
        #expect(line(["toggle"]) == ["toggle"])
        #expect(line(["next"]) == ["playlist-next"])
        #expect(line(["prev"]) == ["playlist-prev"])
        // Guards the grammar issue: `ctl chapter +1` sent `set_property chapter 1` (the second chapter)
        // and `ctl chapter -1` was refused; they step, as a script's and the socket's `add chapter` do.
        #expect(line(["chapter", "+1"]) == ["add", "chapter", "1"])
        #expect(line(["chapter", "-1"]) == ["add", "chapter", "-1"])
        #expect(line(["chapter", "2"]) == ["set_property", "chapter", "2"])
        #expect(line(["chapter", "next"]) == ["add", "chapter", "1"])
        #expect(line(["seek", "-10"]) == ["seek", "-10"])
        #expect(line(["seek", "30", "relative"]) == ["seek", "30", "relative"])
        #expect(line(["volume", "+5"]) == ["add", "volume", "5"])
        #expect(line(["volume", "-5"]) == ["add", "volume", "-5"])
        #expect(line(["volume", "40"]) == ["set_property", "volume", "40"])
        #expect(line(["speed", "+0.25"]) == ["add", "speed", "0.25"])
        #expect(line(["mute"]) == ["set_property", "mute", "yes"])
        #expect(line(["mute", "toggle"]) == ["cycle", "mute"])
        #expect(line(["mute", "off"]) == ["set_property", "mute", "no"])
        #expect(line(["cycle", "loop-playlist"]) == ["cycle", "loop-playlist"])
        #expect(line(["loadfile", "dir/a.wav"], directory: "/home/x") == ["loadfile", "/home/x/dir/a.wav"])
        #expect(line(["loadfile", "/srv/a.wav"], directory: "/home/x") == ["loadfile", "/srv/a.wav"])
        #expect(line(["loadfile", "http://h/a.wav"], directory: "/home/x") == ["loadfile", "http://h/a.wav"])
        #expect(line(["loadfile", "S1E02", "append"]) == ["loadfile", "S1E02", "append"])
        #expect(line(["say", "hello there"]) == ["say", "hello there"])
        #expect(CtlCommand.commands(["play", "d/a.wav", "d/b.wav"], directory: "/x").map { $0.compactMap(\.stringValue) }
                == [["loadfile", "/x/d/a.wav", "replace"], ["loadfile", "/x/d/b.wav", "append"]])
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
        #expect(CtlCommand.check(["chapter", "-1"]) == nil)
        #expect(CtlCommand.check(["frobnicate"]) != nil)
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
