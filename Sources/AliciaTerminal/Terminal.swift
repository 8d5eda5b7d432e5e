internal import Glibc
internal import AliciaLocks

/// The process's terminal: raw mode, the full-screen alternate screen, size
/// and output. One per process.
///
/// `restore()` puts back exactly what this object changed and nothing else,
/// and may be called any number of times, so every exit path can call it:
/// normal quit, a thrown error, and a signal once the loop has seen it (it is
/// not async-signal-safe: handlers should only wake the loop, through a
/// self-pipe for instance). `deinit` calls it too.
///
/// Raw mode turns `ISIG` off, so Ctrl-C and Ctrl-Z arrive as keys
/// (`.control("c")`, `.control("z")`), not signals. To stop on Ctrl-Z: call
/// `suspend()`, then `raise(SIGTSTP)` with the default action (or SIGSTOP);
/// when the process runs again (SIGCONT), call `resume()` and invalidate the
/// `Screen`. A SIGTSTP sent from outside is handled the same way.
///
/// Sequences written by `enterFullScreen()`: `ESC[?1049h` (alternate screen,
/// saving the cursor), `ESC[?7l` (autowrap off, so a width miscounted against
/// the terminal clips instead of scrolling), `ESC[?25l` (hide the cursor),
/// `ESC[?2004h` (bracketed paste), `ESC[0m ESC[H ESC[2J` (clear). Leaving undoes
/// them in reverse: `ESC[0m ESC[?2004l ESC[?25h ESC[?7h ESC[?1049l`.
public final class Terminal: Sendable {
    /// The descriptor keys are read from and termios is set on.
    public let input: Int32
    /// The descriptor the screen is drawn on.
    public let output: Int32

    private struct State: Sendable {
        /// The termios found when raw mode was entered: what `restore()` puts back.
        var original: termios?
        /// Raw mode and the full screen as asked for and not yet restored;
        /// while `suspended` they are undone on the terminal but kept here so
        /// `resume()` can bring them back.
        var rawMode = false
        var fullScreen = false
        var suspended = false
    }

    /// Held across each write too, so that output and a restore from another
    /// thread never interleave mid-sequence.
    private let state = Locked(State())

    static let enterFullScreenSequence =
        "\u{1B}[?1049h\u{1B}[?7l\u{1B}[?25l\u{1B}[?2004h\u{1B}[0m\u{1B}[H\u{1B}[2J"
    static let leaveFullScreenSequence =
        "\u{1B}[0m\u{1B}[?2004l\u{1B}[?25h\u{1B}[?7h\u{1B}[?1049l"

    public init(input: Int32 = 0, output: Int32 = 1) {
        self.input = input
        self.output = output
    }

    deinit {
        restore()
    }

    /// Whether both descriptors are terminals.
    public var isTerminal: Bool {
        isatty(input) == 1 && isatty(output) == 1
    }

    /// Whether this process is the terminal's foreground process group: only
    /// then can it change terminal settings without being stopped (SIGTTOU).
    public var isForeground: Bool {
        let group = tcgetpgrp(input)
        return group != -1 && group == getpgrp()
    }

    /// The size in character cells, or nil when neither descriptor is a
    /// terminal that knows its size. Wraps `ioctl(TIOCGWINSZ)`.
    public func size() -> (columns: Int, rows: Int)? {
        for descriptor in [output, input] {
            var size = winsize()
            if ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 {
                return (Int(size.ws_col), Int(size.ws_row))
            }
        }
        return nil
    }

    /// Saves the current termios and switches the input to raw mode: bytes as
    /// typed, no echo, no signals from keys, no output processing. Does nothing
    /// when already in raw mode.
    ///
    /// The settings are `cfmakeraw`'s. Output post-processing (`OPOST`) stays
    /// off the whole time, in `resume()` too: the screen is drawn with cursor
    /// addressing and never relies on LF becoming CR LF. `VMIN` 1 and `VTIME` 0
    /// make a read after `poll()` reported input return at once with what is
    /// there, so a read of 0 bytes always means end of input.
    public func enterRawMode() throws(TerminalError) {
        try state.withLock { (state) throws(TerminalError) in
            guard !state.rawMode else { return }
            var original = termios()
            guard tcgetattr(input, &original) == 0 else {
                throw TerminalError(operation: "tcgetattr", code: errno)
            }
            try apply(Self.rawSettings(from: original))
            state.original = original
            state.rawMode = true
        }
    }

    /// Switches to the alternate screen, hides the cursor, turns bracketed
    /// paste on and clears. Written even when the output is not a terminal
    /// (check `isTerminal` first); `restore()` undoes it.
    public func enterFullScreen() {
        state.withLock { state in
            state.fullScreen = true
            writeAll(Self.enterFullScreenSequence)
        }
    }

    /// Undoes what this object did: leaves the full screen (attributes reset,
    /// bracketed paste off, cursor shown, autowrap on, main screen back) and
    /// puts back the exact termios saved by `enterRawMode()`. Idempotent; on a
    /// terminal never changed (or not a terminal) it does nothing at all.
    public func restore() {
        state.withLock { state in
            if !state.suspended { undo(state) }
            state = State()
        }
    }

    /// Gives the terminal back for a job-control stop (Ctrl-Z, SIGTSTP), as
    /// `restore()` does, but remembers the modes so `resume()` can return to them.
    public func suspend() {
        state.withLock { state in
            guard !state.suspended else { return }
            undo(state)
            state.suspended = true
        }
    }

    /// Re-enters raw mode and the full screen as they were before `suspend()`.
    /// Also right after an uncatchable SIGSTOP, when the shell may have reset
    /// the terminal behind our back. The screen is cleared: invalidate the `Screen`.
    public func resume() throws(TerminalError) {
        try state.withLock { (state) throws(TerminalError) in
            state.suspended = false
            if state.rawMode, let original = state.original {
                try apply(Self.rawSettings(from: original))
            }
            if state.fullScreen { writeAll(Self.enterFullScreenSequence) }
        }
    }

    /// Writes all of `text`, continuing after partial writes and interrupted
    /// calls, and waiting for room when the descriptor is non-blocking. Output
    /// that cannot be written (the terminal hung up) is dropped: a hang-up
    /// shows on the input side, as end of input.
    public func write(_ text: String) {
        state.withLock { _ in writeAll(text) }
    }

    /// Reads what input is available, up to `maximum` bytes: meant for after
    /// `poll()` reported the input readable. Returns an empty array when
    /// interrupted by a signal or when nothing was there (a non-blocking
    /// descriptor), and nil at end of input or on an error (a hang-up).
    public func readAvailable(upTo maximum: Int = 4096) -> [UInt8]? {
        precondition(maximum > 0, "Terminal.readAvailable(upTo:) needs room for a byte")
        var buffer = [UInt8](repeating: 0, count: maximum)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(input, $0.baseAddress, $0.count) }
        if count > 0 { return Array(buffer[..<count]) }
        if count < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) { return [] }
        return nil
    }

    /// Whether colour may be used: false when `NO_COLOR` is set and not empty,
    /// or `TERM` is `dumb`.
    public static var colorEnabled: Bool {
        styleMode == .color
    }

    /// The styling this environment allows: `.plain` for `TERM=dumb`,
    /// `.monochrome` (attributes, no colours) when `NO_COLOR` is set and not
    /// empty, else `.color`. Says nothing about whether the output is a
    /// terminal: use `.plain` when `isTerminal` is false.
    public static var styleMode: StyleMode {
        styleMode(noColor: environment("NO_COLOR"), term: environment("TERM"))
    }

    static func styleMode(noColor: String?, term: String?) -> StyleMode {
        if term == "dumb" { return .plain }
        if let noColor, !noColor.isEmpty { return .monochrome }
        return .color
    }

    private static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    static func rawSettings(from original: termios) -> termios {
        var raw = original
        raw.c_iflag &= ~tcflag_t(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON)
        raw.c_oflag &= ~tcflag_t(OPOST)
        raw.c_lflag &= ~tcflag_t(ECHO | ECHONL | ICANON | ISIG | IEXTEN)
        raw.c_cflag &= ~tcflag_t(CSIZE | PARENB)
        raw.c_cflag |= tcflag_t(CS8)
        withUnsafeMutableBytes(of: &raw.c_cc) { controlCharacters in
            controlCharacters[Int(VMIN)] = 1
            controlCharacters[Int(VTIME)] = 0
        }
        return raw
    }

    /// Undoes on the terminal what `state` says is in force. Lock held.
    private func undo(_ state: State) {
        if state.fullScreen { writeAll(Self.leaveFullScreenSequence) }
        if state.rawMode, let original = state.original {
            // Nothing more can be done on an exit path if this fails.
            _ = try? apply(original)
        }
    }

    /// Wraps `tcsetattr(TCSANOW)`. Not TCSADRAIN: a terminal that stopped
    /// reading must not block an exit, and what was written is already past
    /// output processing, so changing `OPOST` now cannot alter it.
    private func apply(_ settings: termios) throws(TerminalError) {
        var settings = settings
        while tcsetattr(input, TCSANOW, &settings) != 0 {
            guard errno == EINTR else { throw TerminalError(operation: "tcsetattr", code: errno) }
        }
    }

    /// Lock held.
    private func writeAll(_ text: String) {
        var text = TextCharset.fitted(text)
        text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return }
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(output, base + offset, bytes.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else if written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                    // A non-blocking descriptor (another process may have set O_NONBLOCK
                    // on the shared tty): wait for room as a blocking write would.
                    var descriptor = pollfd(fd: output, events: Int16(POLLOUT), revents: 0)
                    if poll(&descriptor, 1, -1) < 0 && errno != EINTR { return }
                } else {
                    return
                }
            }
        }
    }
}
