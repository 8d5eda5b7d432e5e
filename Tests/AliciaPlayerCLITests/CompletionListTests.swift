import AliciaSession
@testable import AliciaControlClient
@testable import AliciaPlayerCLI
import Foundation
import Testing

/// The completions' lists of the socket's properties and commands against the one property
/// table and the one command table: a property added there fails here until every shell offers it.
@Suite("Completion lists")
struct CompletionListTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// The words of the line that starts with `start` (bash `name="…"`, zsh `name=(…)`, fish `set -g name …`).
    static func words(_ script: String, after start: String) -> Set<String> {
        guard let line = script.split(separator: "\n").first(where: { $0.hasPrefix(start) }) else { return [] }
        let text = line.dropFirst(start.count).filter { !"\"()".contains($0) }
        return Set(text.split(separator: " ").map(String.init))
    }

    @Test("bash, zsh and fish offer every property and every socket command")
    func listsMatchTheTables() throws {
        let shells: [(file: String, properties: String, commands: String, ctl: String)] = [
            ("completions/alicia-player.bash", "_alicia_player_properties=", "_alicia_player_socket_commands=", "_alicia_player_ctl_commands="),
            ("completions/_alicia-player", "_alicia_player_properties=", "_alicia_player_socket_commands=", "_alicia_player_ctl_commands="),
            ("completions/alicia-player.fish", "set -g __alicia_player_properties ", "set -g __alicia_player_socket_commands ",
             "set -g __alicia_player_ctl_commands "),
        ]
        for shell in shells {
            let script = try String(contentsOfFile: Self.root + "/" + shell.file, encoding: .utf8)
            #expect(Self.words(script, after: shell.properties) == Set(SessionProperties.names), "\(shell.file): properties")
            #expect(Self.words(script, after: shell.commands) == Set(SessionCommands.names), "\(shell.file): socket commands")
            // ctl's words besides the socket's: the grammar's aliases and ctl's own.
            #expect(Self.words(script, after: shell.ctl) == Set(CommandAliases.names).union(CtlCommand.ownWords), "\(shell.file): ctl words")
        }
    }
}

/// The README's table of the grammar's aliases and the script's own words, held to the tables.
@Suite("The README's grammar")
struct ReadmeGrammarTests {
    @Test("every alias and every word of the script's own is in the README's table, with its usage")
    func everyAliasIsInTheReadme() throws {
        let readme = try String(contentsOfFile: CompletionListTests.root + "/README.md", encoding: .utf8)
        for alias in CommandAliases.table {
            // The usage as the table writes it, its `|` escaped for Markdown.
            let usage = alias.usage.replacingOccurrences(of: "|", with: "\\|")
            #expect(readme.contains("`" + usage), "the README lacks the alias \(alias.usage)")
        }
        for (usage, _) in Script.ownWords {
            #expect(readme.contains("`" + usage.replacingOccurrences(of: "|", with: "\\|") + "`"), "the README lacks \(usage)")
        }
    }
}
