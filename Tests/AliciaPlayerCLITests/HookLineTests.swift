import Testing
@testable import AliciaHost

/// The config file's hook lines.
@Suite struct HookLineTests {
    @Test func hookLinesParse() {
        #expect(Hook.parse(#"item-start notify-send "Now playing" 'a b'"#) == .success(Hook(event: "item-start", arguments: ["notify-send", "Now playing", "a b"])))
        #expect(Hook.parse("item-end  scrobble\t--quiet") == .success(Hook(event: "item-end", arguments: ["scrobble", "--quiet"])))
        #expect(Hook.parse("started x") == .failure(HookProblem("takes an event (item-start, item-end, pause, resume, voice-note, chapter, sleep-ended, error) and a command")))
        #expect(Hook.parse("pause") == .failure(HookProblem("pause needs a command to run")))
        #expect(Hook.parse("pause 'x") == .failure(HookProblem("a quote is not closed")))
    }
}
