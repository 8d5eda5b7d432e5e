internal import Glibc
internal import AliciaLocks

/// The terminal's input for a linear front end (the accessible Studio): nothing of the output is
/// touched (no alternate screen, no cursor addressing, `OPOST` stays, so a line ends as the
/// terminal expects), and the keyboard is either `keys()` — each key as typed, not echoed, Ctrl-C
/// and Ctrl-Z still signals — or `lines()` — the terminal's own line editing and echo, which a
/// screen reader follows best, for prompts. On a descriptor that is not a terminal both do
/// nothing. `restore()` puts back the termios found first, any number of times.
public final class LinearInput: Sendable {
    public let input: Int32
    private let original = Locked<termios?>(nil)

    public init(input: Int32 = 0) {
        self.input = input
    }

    deinit {
        restore()
    }

    public var isTerminal: Bool { isatty(input) == 1 }

    /// Keys one by one: `ICANON` and `ECHO` off, `VMIN` 1, `VTIME` 0.
    public func keys() throws(TerminalError) {
        try apply { settings in
            settings.c_lflag &= ~tcflag_t(ICANON | ECHO)
            withUnsafeMutableBytes(of: &settings.c_cc) { controlCharacters in
                controlCharacters[Int(VMIN)] = 1
                controlCharacters[Int(VTIME)] = 0
            }
        }
    }

    /// Whole lines, echoed and edited by the terminal.
    public func lines() throws(TerminalError) {
        try apply { settings in settings.c_lflag |= tcflag_t(ICANON | ECHO) }
    }

    /// Puts back the settings found before the first change.
    public func restore() {
        original.withLock { saved in
            guard var settings = saved else { return }
            _ = tcsetattr(input, TCSADRAIN, &settings)
            saved = nil
        }
    }

    private func apply(_ change: (inout termios) -> Void) throws(TerminalError) {
        guard isTerminal else { return }
        try original.withLock { (saved) throws(TerminalError) in
            var settings = termios()
            guard tcgetattr(input, &settings) == 0 else { throw TerminalError(operation: "tcgetattr", code: errno) }
            if saved == nil { saved = settings }
            change(&settings)
            guard tcsetattr(input, TCSADRAIN, &settings) == 0 else { throw TerminalError(operation: "tcsetattr", code: errno) }
        }
    }
}
