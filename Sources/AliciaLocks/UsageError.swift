/// A command line that cannot be run: said in one line, then where the usage is; exit status 2.
/// Here, below every front end, because the command line and `ctl` (AliciaControlClient) both
/// parse words and say what is wrong with them the same way.
public struct UsageError: Error, Equatable, Sendable {
    public let message: String
    /// The command it is about, when it has a usage of its own (for `Try 'alicia-player play --help'.`).
    public let command: String?

    public init(_ message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }

    /// The message as said: after the command's name (`play: unknown option '--bogus'`) unless it
    /// begins with it already (`play needs a URL or a path`).
    public var line: String {
        guard let command, command != "help", !message.hasPrefix(command + " ") else { return message }
        return command + ": " + message
    }

    /// The line after the message.
    public var hint: String {
        // `help` has no usage worth pointing to: the program's is the list of commands.
        let about = command == "help" ? nil : command
        return "Try 'alicia-player \(about.map { $0 + " " } ?? "")--help'."
    }
}
