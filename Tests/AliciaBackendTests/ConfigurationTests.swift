#if canImport(Glibc)
import Glibc
#endif
import Testing
import AliciaTestSupport
@testable import AliciaBackend

@Suite struct ConfigFileTests {
    @Test func parsesKeysValuesCommentsAndQuotes() throws {
        let text = """
            # Alicia
            base_url = http://alicia.local:8766
            ; another comment

            Token = "s3cret value"
            token-file='/run/alicia/token'
            """
        let values = try ConfigFile.parse(text)
        #expect(values == ["base_url": "http://alicia.local:8766", "token": "s3cret value", "token_file": "/run/alicia/token"])
    }

    @Test func aLineWithoutEqualsIsAnErrorWithItsNumber() {
        #expect(throws: ConfigFile.ParseError(message: "line 2: expected `key = value`")) {
            try ConfigFile.parse("base_url = http://h\nnonsense\n")
        }
    }
}

@Suite struct ConfigurationLoaderTests {
    private func write(_ text: String, mode: Int = 0o600) throws -> (TemporaryDirectory, String) {
        let directory = try TemporaryDirectory(prefix: "config")
        let path = try directory.write(Array(text.utf8), as: "config")
        chmod(path, mode_t(mode))
        return (directory, path)
    }

    @Test func flagsBeatEnvironmentBeatFile() throws {
        let (directory, path) = try write("base_url = http://file:1\ntoken = file-token\n")
        defer { directory.remove() }
        let env = ["ALICIA_BASE_URL": "http://env:2", "ALICIA_TOKEN": "env-token"]
        let fromFlags = try ConfigurationLoader.resolve(.init(baseURL: "http://flag:3", token: "flag-token", environment: env, configPath: path))
        #expect(fromFlags.configuration == (try BackendConfiguration(baseURL: "http://flag:3", token: "flag-token")))
        let fromEnv = try ConfigurationLoader.resolve(.init(environment: env, configPath: path))
        #expect(fromEnv.configuration == (try BackendConfiguration(baseURL: "http://env:2", token: "env-token")))
        let fromFile = try ConfigurationLoader.resolve(.init(environment: [:], configPath: path))
        #expect(fromFile.configuration == (try BackendConfiguration(baseURL: "http://file:1", token: "file-token")))
        #expect(fromFile.warnings.isEmpty)
    }

    @Test func theDefaultPathFollowsXDG() {
        #expect(ConfigurationLoader.defaultConfigPath(environment: ["XDG_CONFIG_HOME": "/x", "HOME": "/h"]) == "/x/alicia/config")
        #expect(ConfigurationLoader.defaultConfigPath(environment: ["HOME": "/h"]) == "/h/.config/alicia/config")
    }

    @Test func aTokenFileIsReadAndTrimmed() throws {
        let (directory, path) = try write("  t0ken-from-file \nsecond line ignored\n")
        defer { directory.remove() }
        let result = try ConfigurationLoader.resolve(.init(baseURL: "http://h:1", tokenFile: path, environment: ["ALICIA_TOKEN": "env"],
                                                            configPath: "/nonexistent/config"))
        #expect(result.configuration.token == "t0ken-from-file")
    }

    @Test func aConfigFileOthersCanReadGetsAWarning() throws {
        let (directory, path) = try write("base_url = http://h:1\ntoken = abc\n", mode: 0o644)
        defer { directory.remove() }
        let result = try ConfigurationLoader.resolve(.init(environment: [:], configPath: path))
        #expect(result.warnings.count == 1)
        #expect(result.warnings.first?.contains("chmod 600") == true)
        #expect(result.warnings.first?.contains("abc") == false)
    }

    @Test func nothingConfiguredSaysHowAndMentionsDemo() {
        #expect(throws: BackendError.notConfigured(configPath: "/nonexistent/config")) {
            try ConfigurationLoader.resolve(.init(environment: [:], configPath: "/nonexistent/config"))
        }
        let message = BackendError.notConfigured(configPath: "/x/alicia/config").message
        #expect(message.contains("ALICIA_BASE_URL"))
        #expect(message.contains("demo"))
    }

    /// Guards issue 17: the message named ~/.config/alicia/config whatever XDG_CONFIG_HOME said.
    @Test func nothingConfiguredNamesTheConfigPathLookedAt() {
        #expect(throws: BackendError.notConfigured(configPath: "/xdg/alicia/config")) {
            try ConfigurationLoader.resolve(.init(environment: ["XDG_CONFIG_HOME": "/xdg", "HOME": "/h"]))
        }
        #expect(BackendError.notConfigured(configPath: "/xdg/alicia/config").message.contains("write them to /xdg/alicia/config"))
    }

    /// Guards issue 17: `tokn = abc` was silently ignored.
    @Test(arguments: [
        ("base_url = http://h:1\ntokn = abc\n", "config:2: unknown key 'tokn' (did you mean 'token'?)"),
        ("base-url = http://h:1\n\n# c\nTOKEN_FILES = /t\n", "config:4: unknown key 'token_files' (did you mean 'token_file'?)"),
        ("base_url = http://h:1\ncolour = red\n", "config:2: unknown key 'colour' (the keys are base_url, token, token_file, cache_max_size, auto_download, accessible, hook, hook_time_limit, report, ca_file, keep and delete_played_after)"),
    ])
    func anUnknownKeyIsAWarningNamingFileAndLine(text: String, warning: String) throws {
        let (directory, path) = try write(text)
        defer { directory.remove() }
        let result = try ConfigurationLoader.resolve(.init(environment: [:], configPath: path))
        // The warning begins with the file's path: `…/config:2: …`.
        #expect(result.warnings == [path + warning.dropFirst("config".count)])
    }

    /// A misspelt base_url makes the configuration missing: the warning still comes.
    @Test func theWarningComesAlsoWhenTheBackendIsMissing() throws {
        let (directory, path) = try write("base_ulr = http://h:1\n")
        defer { directory.remove() }
        var warnings: [String] = []
        #expect(throws: BackendError.notConfigured(configPath: path)) {
            try ConfigurationLoader.resolve(.init(environment: [:], configPath: path), warnings: &warnings)
        }
        #expect(warnings == ["\(path):1: unknown key 'base_ulr' (did you mean 'base_url'?)"])
    }

    @Test func aBaseURLMustBeHTTP() {
        #expect(throws: BackendError.badBaseURL("alicia.local:8766")) {
            try BackendConfiguration(baseURL: "alicia.local:8766", token: nil)
        }
    }
}

@Suite struct MediaURLTests {
    @Test(arguments: [
        ("/api/audio/s11e04.wav", "http://h:8766/api/audio/s11e04.wav?token=t%2Fk%20n%26x%3D1"),
        ("/api/audio/a.wav?v=2", "http://h:8766/api/audio/a.wav?v=2&token=t%2Fk%20n%26x%3D1"),
        ("api/audio/a.wav#t=5", "http://h:8766/api/audio/a.wav?token=t%2Fk%20n%26x%3D1#t=5"),
        ("https://cdn.example/a.wav", "https://cdn.example/a.wav?token=t%2Fk%20n%26x%3D1"),
    ])
    func appendsTheTokenEncoded(fileName: String, expected: String) throws {
        let configuration = try BackendConfiguration(baseURL: "http://h:8766/", token: "t/k n&x=1")
        #expect(configuration.mediaURL(for: fileName) == expected)
    }

    @Test func withoutATokenTheURLIsPlain() throws {
        let configuration = try BackendConfiguration(baseURL: "http://h:8766", token: nil)
        #expect(configuration.mediaURL(for: "/api/audio/a.wav") == "http://h:8766/api/audio/a.wav")
        #expect(configuration.hostAndPort == "h:8766")
        #expect(try BackendConfiguration(baseURL: "https://alicia.example", token: nil).hostAndPort == "alicia.example:443")
    }
}

@Suite("Config file writes")
struct ConfigFileSettingTests {
    @Test("setting a key replaces its last line, or adds one; comments and other lines stay")
    func setting() throws {
        #expect(try ConfigFile.setting("cache_max_size", to: "5G", in: "") == "cache_max_size = 5G\n")
        #expect(try ConfigFile.setting("cache_max_size", to: "5G", in: "# mine\nbase_url = http://h:1\ncache-max-size = 2G\n")
            == "# mine\nbase_url = http://h:1\ncache_max_size = 5G\n")
        #expect(try ConfigFile.setting("cache_max_size", to: "1G", in: "token = x") == "token = x\ncache_max_size = 1G\n")
    }
}
