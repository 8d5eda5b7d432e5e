import Testing
@testable import AliciaBackend

/// `ConfigFile.setting`: `config set` changes one key and keeps everything else.
@Suite struct ConfigFileEditingTests {
    @Test(arguments: [
        ("", "token", "abc", "token = abc\n"),
        ("# mine\nbase_url = http://a:1\n", "token", "abc", "# mine\nbase_url = http://a:1\ntoken = abc\n"),
        ("token = old\n; note\n", "token", "new", "token = new\n; note\n"),
        ("Token = 1\nx = 2\ntoken = 3\n", "TOKEN", "4", "token = 4\nx = 2\n"),
        ("base_url = http://a:1", "base-url", "http://b:2/", "base_url = http://b:2/\n"),
        ("", "token", " spaced ", "token = \" spaced \"\n"),
        ("cache_max_size = 1G\n", "auto-download", "2", "cache_max_size = 1G\nauto_download = 2\n"),
        ("", "report", "off", "report = off\n"),
    ])
    func sets(text: String, key: String, value: String, expected: String) throws {
        let edited = try ConfigFile.setting(key, to: value, in: text)
        #expect(edited == expected)
        let read = try ConfigFile.parse(edited)
        #expect(read[ConfigFile.knownKey(key) ?? key] == value)
    }

    @Test(arguments: [
        ("tokn", "x", "unknown key 'tokn' (did you mean 'token'?)"),
        ("token", "", "token needs a value"),
        ("base_url", "alicia.local", "the base URL 'alicia.local' is not"),
        ("auto_download", "lots", "auto_download 'lots' is not a number of queue items from 0 to 100"),
        ("auto_download", "500", "auto_download '500' is not a number of queue items from 0 to 100"),
        ("report", "sometimes", "report 'sometimes' is not on or off"),
    ])
    func refuses(key: String, value: String, message: String) {
        #expect(throws: ConfigFile.EditError.self) { try ConfigFile.setting(key, to: value, in: "") }
        do {
            _ = try ConfigFile.setting(key, to: value, in: "")
        } catch {
            #expect(error.message.hasPrefix(message), "\(error.message)")
        }
    }

    @Test func effectiveSaysWhereEachValueCameFrom() throws {
        var sources = ConfigurationLoader.Sources(baseURL: "http://flag:1", environment: ["ALICIA_TOKEN": "env-token"],
                                                  configPath: "/nonexistent/alicia/config")
        var effective = try ConfigurationLoader.effective(sources)
        #expect(effective.fileExists == false)
        #expect(effective.settings.map(\.origin) == [.flag("--base-url"), .environment("ALICIA_TOKEN")] + Array(repeating: .notSet, count: 10))
        // Every key the config file takes is shown.
        #expect(effective.settings.map(\.key) == ["base_url", "token", "token_file", "accessible", "auto_download", "ca_file", "cache_max_size",
                                                   "delete_played_after", "hook", "hook_time_limit", "keep", "report"])
        sources.tokenFile = "/run/token"
        effective = try ConfigurationLoader.effective(sources)
        #expect(effective.settings[1].value == nil)
        #expect(effective.settings[2].origin == .flag("--token-file"))
    }
}
