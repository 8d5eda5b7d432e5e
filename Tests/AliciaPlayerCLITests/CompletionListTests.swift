import AliciaSession
@testable import AliciaControlClient
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
