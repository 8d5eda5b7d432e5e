import Glibc

/// A pseudo-terminal pair for tests that need a real tty: the slave side is
/// what a `Terminal` drives, the master side plays the user's terminal.
final class PseudoTerminal {
    let master: Int32
    let slave: Int32

    init() throws {
        var master: Int32 = -1
        var slave: Int32 = -1
        guard openpty(&master, &slave, nil, nil, nil) == 0 else {
            throw TerminalTestError("openpty failed, errno \(errno)")
        }
        self.master = master
        self.slave = slave
    }

    deinit {
        close(master)
        close(slave)
    }

    var slavePath: String {
        String(cString: ttyname(slave))
    }

    func settings() throws -> termios {
        var settings = termios()
        guard tcgetattr(slave, &settings) == 0 else {
            throw TerminalTestError("tcgetattr failed, errno \(errno)")
        }
        return settings
    }

    func setSize(columns: Int, rows: Int) throws {
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        guard ioctl(master, UInt(TIOCSWINSZ), &size) == 0 else {
            throw TerminalTestError("TIOCSWINSZ failed, errno \(errno)")
        }
    }

    /// Everything the slave side has written so far (what the user's terminal
    /// would receive), waiting briefly for it to arrive.
    func readOutput() -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 100) > 0 else { break }
            let count = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes += buffer[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
