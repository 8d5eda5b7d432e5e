#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Standard output and error, unbuffered writes of whole strings.
///
/// SIGPIPE is ignored (sockets need that), so a closed stdout shows as EPIPE: it is remembered, and
/// the commands that go on printing (the plain Studio, chat) end quietly with status 0 once their
/// reader has gone, as `yes | head -1` does.
package enum Console {
    /// A write to stdout failed with EPIPE.
    private static let stdoutBroken = Atomic<Bool>(false)

    /// Something was to be printed and could not be: the reader had gone (EPIPE).
    package static var stdoutWriteFailed: Bool { stdoutBroken.load(ordering: .relaxed) }

    /// Whoever read stdout has gone: a write failed with EPIPE, or the pipe reports that its read
    /// end is closed (POLLERR), which a loop can see before it has anything to write.
    package static var stdoutClosed: Bool {
        if stdoutWriteFailed { return true }
        var fds = pollfd(fd: 1, events: 0, revents: 0)
        return poll(&fds, 1, 0) > 0 && fds.revents & Int16(POLLERR) != 0
    }

    package static func out(_ text: String) { write(1, text) }
    package static func error(_ text: String) { write(2, text) }

    /// One line on stderr: `alicia-player: <message>`.
    package static func fail(_ message: String) { error("alicia-player: \(message)\n") }

    package static var stderrIsTerminal: Bool { isatty(2) == 1 }

    /// Columns of the terminal on stderr, if it is one.
    package static var stderrColumns: Int? {
        var size = winsize()
        guard ioctl(2, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    private static func write(_ fd: Int32, _ text: String) {
        // Only a terminal gets ASCII stand-ins: a pipe (a script, --json) gets the text exactly.
        var text = TextCharset.isUTF8 || isatty(fd) != 1 ? text : TextCharset.fitted(text)
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n < 0 && errno == EPIPE && fd == 1 { stdoutBroken.store(true, ordering: .relaxed) }
                if n <= 0 { return }
                offset += n
            }
        }
    }
}
