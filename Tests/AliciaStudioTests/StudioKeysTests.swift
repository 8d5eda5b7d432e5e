import Testing
import AliciaAudio
import AliciaSession
import AliciaTerminal
@testable import AliciaStudio

/// The Studio's keys as data: the defaults follow podcast-app conventions and mean, through the one
/// grammar, what they always meant; a `bind` line rebinds a key and the help shows it.
@Suite struct StudioKeysTests {
    /// What a key's command line makes through the session's grammar (one request).
    private func request(_ key: Key, _ keys: StudioKeys = .defaults) -> CommandRequest? {
        guard let line = keys.command(for: key), let words = SessionCommands.words(ofLine: line),
              case .success(let requests) = CommandAliases.requests(words), requests.count == 1 else { return nil }
        return requests[0]
    }

    @Test(arguments: [
        (Key.character(" "), CommandRequest.perform(.toggleOrSkipNote)), (.left, .perform(.seek(.by(-15)))),
        (.right, .perform(.seek(.by(30)))), (.character(","), .perform(.seek(.by(-5)))),
        (.character("."), .perform(.seek(.by(5)))), (.character("0"), .perform(.seek(.toFraction(0)))),
        (.character("7"), .perform(.seek(.toFraction(0.7)))), (.character("n"), .perform(.next)),
        (.character("p"), .perform(.previous)), (.character("+"), .add("volume", 5)), (.character("="), .add("volume", 5)),
        (.character("-"), .add("volume", -5)), (.character("m"), .cycle("mute")),
        (.character("]"), .add("speed", 0.25)), (.character("["), .add("speed", -0.25)),
        (.character("s"), .cycle("alicia-skip-silence")), (.character("z"), .cycle("alicia-sleep")),
        (.character("v"), .perform(.replayVoiceNote)), (.pageUp, .add("chapter", -1)), (.pageDown, .add("chapter", 1)),
        (.character("q"), .perform(.quit(status: 0, savePosition: false))),
        (.control("c"), .perform(.quit(status: 130, savePosition: false))),
    ])
    func sessionKeysAreLinesOfTheGrammar(key: Key, expected: CommandRequest) {
        #expect(request(key) == expected)
    }

    @Test(arguments: [
        (Key.character("t"), StudioAction.talk), (.enter, .playSelected), (.character("/"), .search),
        (.character("?"), .show(.help)), (.control("z"), .suspend), (.escape, .dismiss), (.character("a"), .enqueueSelected),
        (.character("A"), .playSelectedNext), (.character("c"), .show(.chapters)), (.character("Q"), .show(.queue)),
        (.control("u"), .select(.pages(-1))), (.control("d"), .select(.pages(1))), (.character("j"), .select(.by(1))),
        (.up, .select(.by(-1))), (.character("G"), .select(.last)),
    ])
    func studioKeysAreTheStudiosOwnCommands(key: Key, expected: StudioAction) throws {
        let line = try #require(StudioKeys.defaults.command(for: key))
        #expect(StudioAction.parse(try #require(SessionCommands.words(ofLine: line))) == .success(expected))
    }

    @Test func everyDefaultBindingIsAValidCommandAndShowsInTheHelp() {
        for binding in StudioKeys.defaults.bindings {
            #expect(StudioAction.problem(with: binding.command) == nil, "\(binding.command)")
            #expect(binding.row != nil)
        }
        let help = StudioKeys.defaults.helpRows
        #expect(help.contains { $0.keys == "0 – 9" && $0.what == "jump to 0 – 90 %" })
        #expect(help.contains { $0.keys == "← / →" && $0.what == "back 15 s / forward 30 s" })
    }

    @Test func aBindLineRebindsAKeyAndTheHelpShowsIt() throws {
        var keys = StudioKeys.defaults
        let (key, command) = try StudioKeys.parseBind("x seek 30").get()
        keys.bind(key, command)
        #expect(request(.character("x"), keys) == .perform(.seek(.by(30))))
        #expect(keys.helpRows.contains { $0.keys == "x" && $0.what == "seek 30" })
        // A default key bound anew leaves its row; unbound, it does nothing.
        let (right, back) = try StudioKeys.parseBind("RIGHT seek -60").get()
        keys.bind(right, back)
        #expect(keys.helpRows.contains { $0.keys == "←" && $0.what == "back 15 s" })
        #expect(keys.helpRows.contains { $0.keys == "→" && $0.what == "seek -60" })
        let (n, ignore) = try StudioKeys.parseBind("n ignore").get()
        keys.bind(n, ignore)
        #expect(keys.command(for: .character("n")) == nil)
        #expect(keys.listing.contains("x       seek 30"))
    }

    @Test(arguments: [
        ("nosuchkey seek 30", "'nosuchkey' is not a key"),
        ("x", "x needs a command"),
        ("x frobnicate", "x: unknown command 'frobnicate'"),
        ("x select sideways", "x: select takes"),
        ("x seek soon", "x: seek: 'soon' is not a time"),
    ])
    func aBadBindLineSaysWhy(line: String, message: String) {
        guard case .failure(let problem) = StudioKeys.parseBind(line) else {
            Issue.record("'\(line)' was taken")
            return
        }
        #expect(problem.message.hasPrefix(message), "\(problem.message)")
    }

    @Test func keyNamesReadAndPrintAlike() {
        for name in ["SPACE", "LEFT", "PGUP", "PGDWN", "Ctrl+u", "Alt+x", "x", "X", "+", "ESC", "ENTER", "Shift+TAB"] {
            #expect(Key(name: name)?.name == name, "\(name)")
        }
        #expect(Key(name: "space") == .character(" "))
        #expect(Key(name: "ctrl+U") == .control("u"))
        #expect(Key(name: "xy") == nil)
        #expect(Key(name: "") == nil)
    }
}
