import AliciaSession
import AliciaStudio

/// `help commands` and `help keys`: the tables themselves, as the program has them now.
enum HelpTopics {
    static let names: Set<String> = ["commands", "keys"]

    static func text(_ topic: String) -> String? {
        switch topic {
        case "commands": return commands
        case "keys": return keys
        default: return nil
        }
    }

    /// The one grammar: the socket's commands, the aliases scripts and `ctl` take, the script's words.
    static var commands: String {
        """
        The commands of the control socket, which scripts, ctl and the Studio's keys speak too:
        \(CommandGrammar.text(CommandGrammar.commands))

        Aliases (a script line, ctl, or a key bound in the configuration may use them):
        \(CommandGrammar.text(CommandGrammar.aliases))

        A script's own words:
        \(CommandGrammar.text(Script.ownWords))
        """
    }

    /// The Studio's keys in effect (the configuration's `bind` lines over the defaults).
    static var keys: String {
        var warnings: [String] = []
        let keys = StudioKeys.configured { warnings.append($0) }
        let lines = ["The Studio's keys (bind = KEY COMMAND in the configuration file changes one; ignore unbinds it):"]
            + keys.listing.map { "  " + $0 } + warnings.map { "warning: " + $0 }
        return lines.joined(separator: "\n")
    }
}
