#if canImport(Glibc)
import Glibc
#endif

/// Standard output and error, unbuffered writes of whole strings.
enum Console {
    static func out(_ text: String) { write(1, text) }
    static func error(_ text: String) { write(2, text) }

    /// One line on stderr: `alicia-player: <message>`.
    static func fail(_ message: String) { error("alicia-player: \(message)\n") }

    static var stderrIsTerminal: Bool { isatty(2) == 1 }

    /// Columns of the terminal on stderr, if it is one.
    static var stderrColumns: Int? {
        var size = winsize()
        guard ioctl(2, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    private static func write(_ fd: Int32, _ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return }
                offset += n
            }
        }
    }
}
