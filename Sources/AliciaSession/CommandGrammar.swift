/// The one grammar in words, made from its tables: every command of the socket, every alias and
/// what it stands for. `help commands`, the usage of `script` and `ctl`, and the README's verb
/// table are this listing (a test holds the README to it).
package enum CommandGrammar {
    /// `(usage, what it does)` of each alias, its expansion shown for its first example.
    package static var aliases: [(usage: String, help: String)] {
        CommandAliases.table.map { alias in
            let example = alias.examples.first ?? []
            let expanded = (try? alias.expand(example).get())?.map { $0.joined(separator: " ") }.joined(separator: "; ") ?? ""
            let spelled = ([alias.name] + example).joined(separator: " ")
            let others = alias.names.dropFirst()
            let also = others.isEmpty ? "" : " (also \(others.joined(separator: ", ")))"
            return (alias.usage, alias.help + also + " — `\(spelled)` is `\(expanded)`")
        }
    }

    /// `(usage, what it does)` of each command of the table.
    package static var commands: [(usage: String, help: String)] {
        SessionCommands.table.map { ($0.usage, $0.help) }
    }

    /// The listing as text: a line a command, its usage padded, then what it does.
    package static func text(_ rows: [(usage: String, help: String)], indent: String = "  ") -> String {
        let width = min(34, rows.map(\.usage.count).max() ?? 0)
        return rows.map { row in
            let usage = row.usage.count >= width ? row.usage + "\n" + indent + String(repeating: " ", count: width) : row.usage
                + String(repeating: " ", count: width - row.usage.count)
            return indent + usage + "  " + row.help
        }.joined(separator: "\n")
    }
}
