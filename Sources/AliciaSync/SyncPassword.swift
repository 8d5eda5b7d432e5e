#if canImport(Glibc)
import Glibc
#endif

/// The sync password for `sync setup`: `ALICIA_SYNC_PASSWORD`, else the first line of standard
/// input when it is not a terminal, else asked on the terminal with echo off (as `ssh` and `sudo`
/// ask). Never echoed, logged or shown.
package enum SyncPassword {
    package static func read(user: String) throws(SyncError) -> String {
        if let value = getenv("ALICIA_SYNC_PASSWORD").map({ String(cString: $0) }), !value.isEmpty { return value }
        if isatty(0) != 1 {
            guard let line = readLine(strippingNewline: true), !line.isEmpty else {
                throw SyncError("sync setup: no password on standard input (or in ALICIA_SYNC_PASSWORD)")
            }
            return line
        }
        return try askTerminal("password for \(user): ")
    }

    /// Reads a line from /dev/tty with echo off, the prompt on it; echo is put back whatever happens.
    private static func askTerminal(_ prompt: String) throws(SyncError) -> String {
        let tty = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard tty >= 0 else { throw SyncError("sync setup: no terminal to ask the password on (give it in ALICIA_SYNC_PASSWORD)") }
        defer { close(tty) }
        var saved = termios()
        guard tcgetattr(tty, &saved) == 0 else { throw SyncError("sync setup: cannot turn the terminal's echo off") }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        _ = tcsetattr(tty, TCSAFLUSH, &quiet)
        defer {
            _ = tcsetattr(tty, TCSAFLUSH, &saved)
            _ = write(tty, "\n", 1)
        }
        _ = prompt.withCString { write(tty, $0, strlen($0)) }
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while bytes.count < 4096, Glibc.read(tty, &byte, 1) == 1, byte != 10 { bytes.append(byte) }
        guard !bytes.isEmpty else { throw SyncError("sync setup: no password given") }
        return String(decoding: bytes, as: UTF8.self)
    }
}
