import Testing
import AliciaBackend
@testable import AliciaPlayerCLI
import AliciaLocks
@testable import AliciaLibrary
@testable import AliciaHost
@testable import AliciaStudio

/// `alicia-player config`: the parse and what it prints.
@Suite struct ConfigCommandTests {
    @Test(arguments: [
        (["config"], Invocation.config(.show, backend: BackendOptions())),
        (["config", "--path"], .config(.path, backend: BackendOptions())),
        (["config", "--token", "t"], .config(.show, backend: BackendOptions(token: "t"))),
        (["config", "set", "token", "abc"], .config(.set(key: "token", value: "abc"), backend: BackendOptions())),
        (["config", "--help"], .help(command: "config")),
        (["help", "config"], .help(command: "config")),
    ])
    func parses(arguments: [String], expected: Invocation) throws {
        #expect(try Invocation.parse(arguments) == expected)
    }

    @Test(arguments: [
        (["config", "set", "token"], "config set takes KEY VALUE (base_url, token, token_file, cache_max_size, auto_download, accessible, report, ca_file, keep or delete_played_after)"),
        (["config", "set", "token", "a", "--path"], "config does not take --path"),
        (["config", "x"], "config takes no arguments but get KEY or set KEY VALUE, got 'x'"),
        (["config", "--json"], "config does not take --json"),
    ])
    func refuses(arguments: [String], message: String) {
        #expect(throws: UsageError(message, command: "config")) { try Invocation.parse(arguments) }
    }

    @Test func theTokenIsNeverShown() {
        let effective = ConfigurationLoader.Effective(
            configPath: "/home/a/.config/alicia/config", fileExists: true,
            settings: [
                .init(key: "base_url", value: "http://h:1", origin: .environment("ALICIA_BASE_URL")),
                .init(key: "token", value: "s3cret", origin: .file(path: "/home/a/.config/alicia/config", line: 2)),
                .init(key: "token_file", value: nil, origin: .notSet),
            ],
            warnings: [])
        let text = ConfigCommand.render(effective)
        #expect(!text.contains("s3cret"))
        #expect(text == """
            config file  /home/a/.config/alicia/config
            base_url     http://h:1  from $ALICIA_BASE_URL
            token        ***         from /home/a/.config/alicia/config:2
            token_file   (not set)

            """)
    }
}
