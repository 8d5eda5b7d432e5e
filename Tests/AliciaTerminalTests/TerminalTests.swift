import Foundation
import Glibc
import Testing
@testable import AliciaTerminal

@Suite struct TerminalEnvironmentTests {
    @Test(arguments: [
        (String?.none, String?.none, StyleMode.color),
        (nil, "xterm-256color", .color),
        ("", "xterm", .color),
        ("1", "xterm", .monochrome),
        ("yes", nil, .monochrome),
        (nil, "dumb", .plain),
        ("1", "dumb", .plain),
    ])
    func choosesTheStyleMode(noColor: String?, term: String?, expected: StyleMode) {
        #expect(Terminal.styleMode(noColor: noColor, term: term) == expected)
    }

    /// The real environment, read in a child process so that no other test
    /// (or a process it starts) sees the variables change.
    @Test func readsNoColorAndTermFromTheEnvironment() async {
        await #expect(processExitsWith: .success) {
            setenv("TERM", "xterm", 1)
            unsetenv("NO_COLOR")
            guard Terminal.colorEnabled, Terminal.styleMode == .color else { exit(1) }
            setenv("NO_COLOR", "", 1)
            guard Terminal.colorEnabled else { exit(2) }
            setenv("NO_COLOR", "1", 1)
            guard !Terminal.colorEnabled, Terminal.styleMode == .monochrome else { exit(3) }
            unsetenv("NO_COLOR")
            setenv("TERM", "dumb", 1)
            guard !Terminal.colorEnabled, Terminal.styleMode == .plain else { exit(4) }
            exit(0)
        }
    }
}

@Suite struct TerminalPipeTests {
    /// A pipe with both ends non-blocking, closed at the end of the test.
    final class Pipe {
        let read: Int32
        let write: Int32

        init() throws {
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else { throw TerminalTestError("pipe failed, errno \(errno)") }
            read = ends[0]
            write = ends[1]
            for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
        }

        deinit {
            close(read)
            close(write)
        }

        func available() -> [UInt8] {
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            let count = buffer.withUnsafeMutableBytes { Glibc.read(read, $0.baseAddress, $0.count) }
            return count > 0 ? Array(buffer[..<count]) : []
        }
    }

    @Test func aPipeIsNotATerminal() throws {
        let pipe = try Pipe()
        let terminal = Terminal(input: pipe.read, output: pipe.write)
        #expect(!terminal.isTerminal)
        #expect(terminal.size() == nil)
        #expect(!terminal.isForeground)
    }

    @Test func rawModeOnAPipeFailsWithENOTTY() throws {
        let pipe = try Pipe()
        let terminal = Terminal(input: pipe.read, output: pipe.write)
        let error = #expect(throws: TerminalError.self) { try terminal.enterRawMode() }
        #expect(error?.isNotATerminal == true)
        #expect(error?.operation == "tcgetattr")
        #expect(error?.description.contains("tcgetattr") == true)
    }

    @Test func restoreOnANonTerminalDoesNothingAndCanRepeat() throws {
        let pipe = try Pipe()
        let terminal = Terminal(input: pipe.read, output: pipe.write)
        terminal.restore()
        terminal.restore()
        terminal.suspend()
        try terminal.resume()
        terminal.restore()
        #expect(pipe.available() == [])
    }

    @Test func restoreUndoesTheFullScreenOnceOnly() throws {
        let pipe = try Pipe()
        let terminal = Terminal(input: pipe.read, output: pipe.write)
        terminal.enterFullScreen()
        #expect(pipe.available() == Array(Terminal.enterFullScreenSequence.utf8))
        terminal.restore()
        terminal.restore()
        #expect(pipe.available() == Array(Terminal.leaveFullScreenSequence.utf8))
    }

    /// Much more than a pipe holds (64 KiB), through a non-blocking pipe,
    /// forces partial writes and EAGAIN; a slow reader on its own thread must
    /// still get every byte, in order.
    @Test func writeDeliversEverythingThroughPartialWrites() throws {
        let pipe = try Pipe()
        let terminal = Terminal(input: pipe.read, output: pipe.write)
        var text = ""
        for index in 0..<(1 << 16) { text += String(index % 10) + "日本語αβγ😀xyzw".prefix(index % 8) }
        let expected = Array(text.utf8)
        let received = ByteCollector()
        let finished = DispatchSemaphore(value: 0)
        let descriptor = pipe.read
        let reader = Thread {
            var buffer = [UInt8](repeating: 0, count: 3000)
            while received.count < expected.count {
                var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, 5000) > 0 else { break }
                let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
                if count > 0 { received.append(buffer[..<count]) }
                usleep(100)
            }
            finished.signal()
        }
        reader.start()
        terminal.write(text)
        finished.wait()
        let bytes = received.all
        #expect(bytes.count == expected.count)
        // Compared as one Bool: on failure, a diff of two large arrays would take minutes.
        let identical = bytes == expected
        #expect(identical)
    }

    @Test func readAvailableReadsWhatIsThereAndSeesTheEnd() throws {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw TerminalTestError("pipe failed") }
        defer { close(ends[0]) }
        let terminal = Terminal(input: ends[0], output: ends[1])
        _ = "q\u{1B}[A".withCString { Glibc.write(ends[1], $0, 4) }
        #expect(terminal.readAvailable() == Array("q\u{1B}[A".utf8))
        close(ends[1])
        #expect(terminal.readAvailable() == nil)
    }

    @Test func readAvailableOnAnEmptyNonBlockingInputIsEmpty() throws {
        let pipe = try Pipe()
        #expect(Terminal(input: pipe.read, output: pipe.write).readAvailable(upTo: 16) == [])
    }
}

/// Real terminal settings on a pseudo-terminal. Each test has its own pty, but
/// they run one at a time to keep `stty` runs and timing out of each other's way.
@Suite(.serialized) struct TerminalPseudoTerminalTests {
    static func fields(_ settings: termios) -> [String: [UInt64]] {
        var settings = settings
        let controlCharacters = withUnsafeBytes(of: &settings.c_cc) { $0.map { UInt64($0) } }
        return [
            "c_iflag": [UInt64(settings.c_iflag)], "c_oflag": [UInt64(settings.c_oflag)],
            "c_cflag": [UInt64(settings.c_cflag)], "c_lflag": [UInt64(settings.c_lflag)],
            "c_line": [UInt64(settings.c_line)], "c_cc": controlCharacters,
            "c_ispeed": [UInt64(settings.c_ispeed)], "c_ospeed": [UInt64(settings.c_ospeed)],
        ]
    }

    static func stty(_ path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/stty")
        process.arguments = ["-F", path, "-g"]
        let output = Foundation.Pipe()
        process.standardOutput = output
        try process.run()
        process.waitUntilExit()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func aPseudoTerminalIsATerminalWithASize() throws {
        let pty = try PseudoTerminal()
        try pty.setSize(columns: 100, rows: 30)
        let terminal = Terminal(input: pty.slave, output: pty.slave)
        #expect(terminal.isTerminal)
        let size = try #require(terminal.size())
        #expect(size.columns == 100 && size.rows == 30)
        try pty.setSize(columns: 42, rows: 7)
        #expect(terminal.size()?.columns == 42)
        #expect(terminal.size()?.rows == 7)
    }

    @Test func rawModeChangesTheSettingsAndRestoreBringsBackEveryField() throws {
        let pty = try PseudoTerminal()
        let before = try pty.settings()
        let terminal = Terminal(input: pty.slave, output: pty.slave)
        try terminal.enterRawMode()
        let raw = try pty.settings()
        #expect(raw.c_lflag & tcflag_t(ICANON | ECHO | ISIG | IEXTEN) == 0)
        #expect(raw.c_iflag & tcflag_t(ICRNL | IXON) == 0)
        #expect(raw.c_oflag & tcflag_t(OPOST) == 0)
        #expect(raw.c_cflag & tcflag_t(CSIZE) == tcflag_t(CS8))
        var rawCopy = raw
        let minimum = withUnsafeBytes(of: &rawCopy.c_cc) { ($0[Int(VMIN)], $0[Int(VTIME)]) }
        #expect(minimum == (1, 0))
        #expect(Self.fields(raw) != Self.fields(before))

        // Entering twice must not save the raw settings as the original.
        try terminal.enterRawMode()
        terminal.restore()
        #expect(Self.fields(try pty.settings()) == Self.fields(before))
        terminal.restore()
        #expect(Self.fields(try pty.settings()) == Self.fields(before))
    }

    @Test func rawModeKeepsOutputProcessingOffThroughSuspendAndResume() throws {
        let pty = try PseudoTerminal()
        let before = try pty.settings()
        let terminal = Terminal(input: pty.slave, output: pty.slave)
        try terminal.enterRawMode()
        let raw = Self.fields(try pty.settings())
        terminal.suspend()
        #expect(Self.fields(try pty.settings()) == Self.fields(before))
        terminal.suspend()
        #expect(Self.fields(try pty.settings()) == Self.fields(before))
        try terminal.resume()
        #expect(Self.fields(try pty.settings()) == raw)
        terminal.restore()
        #expect(Self.fields(try pty.settings()) == Self.fields(before))
    }

    /// The app's own check: `stty -g` reads the same before and after, with
    /// settings changed from the defaults first so a reset to defaults would show.
    @Test func sttyReadsTheSameBeforeAndAfter() throws {
        let pty = try PseudoTerminal()
        var custom = try pty.settings()
        custom.c_lflag &= ~tcflag_t(ECHOCTL)
        custom.c_iflag |= tcflag_t(IXOFF)
        withUnsafeMutableBytes(of: &custom.c_cc) { $0[Int(VERASE)] = 0x08 }
        guard tcsetattr(pty.slave, TCSANOW, &custom) == 0 else { throw TerminalTestError("tcsetattr failed") }
        let before = try Self.stty(pty.slavePath)

        let terminal = Terminal(input: pty.slave, output: pty.slave)
        try terminal.enterRawMode()
        terminal.enterFullScreen()
        #expect(try Self.stty(pty.slavePath) != before)
        terminal.suspend()
        #expect(try Self.stty(pty.slavePath) == before)
        try terminal.resume()
        terminal.restore()
        terminal.restore()
        #expect(try Self.stty(pty.slavePath) == before)
    }

    @Test func theFullScreenSequencesReachTheTerminal() throws {
        let pty = try PseudoTerminal()
        let terminal = Terminal(input: pty.slave, output: pty.slave)
        try terminal.enterRawMode()
        terminal.enterFullScreen()
        terminal.write("frame\n")
        terminal.suspend()
        try terminal.resume()
        terminal.restore()
        let output = pty.readOutput()
        // OPOST is off: the LF reaches the terminal as it was written.
        let expected = Terminal.enterFullScreenSequence + "frame\n" + Terminal.leaveFullScreenSequence
            + Terminal.enterFullScreenSequence + Terminal.leaveFullScreenSequence
        #expect(output == expected)
    }

    @Test func keysTypedOnThePseudoTerminalDecode() throws {
        let pty = try PseudoTerminal()
        let terminal = Terminal(input: pty.slave, output: pty.slave)
        try terminal.enterRawMode()
        defer { terminal.restore() }
        // In raw mode neither CR nor ctrl-c is translated by the line discipline.
        let typed = Array("é\r\u{03}\u{1B}[A".utf8)
        _ = typed.withUnsafeBytes { Glibc.write(pty.master, $0.baseAddress, $0.count) }
        var descriptor = pollfd(fd: pty.slave, events: Int16(POLLIN), revents: 0)
        #expect(poll(&descriptor, 1, 1000) == 1)
        let bytes = try #require(terminal.readAvailable())
        var decoder = KeyDecoder()
        #expect(decoder.feed(bytes) == [.character("é"), .enter, .control("c"), .up])
    }

    @Test func deinitRestores() throws {
        let pty = try PseudoTerminal()
        let before = Self.fields(try pty.settings())
        do {
            let terminal = Terminal(input: pty.slave, output: pty.slave)
            try terminal.enterRawMode()
            #expect(Self.fields(try pty.settings()) != before)
        }
        #expect(Self.fields(try pty.settings()) == before)
    }
}
