import Testing
import AliciaLocks
@testable import AliciaPlayerCLI
import AliciaControlClient

/// `ctl` and `--ipc` on the command line: what the parser makes of them.
@Suite struct CtlInvocationTests {
    @Test func ctlParses() throws {
        #expect(throws: UsageError.self) { try Invocation.parse(["ctl"]) }
        #expect(throws: UsageError.self) { try Invocation.parse(["ctl", "--bogus", "get", "pause"]) }
        #expect(try Invocation.parse(["ctl", "--ipc", "/tmp/s", "--json", "seek", "-5"])
                == .ctl(CtlOptions(ipcPath: "/tmp/s", json: true, words: ["seek", "-5"])))
        #expect(try Invocation.parse(["ctl", "--help"]) == .help(command: "ctl"))
    }

    @Test func ipcOptionsParse() throws {
        guard case .play(let options) = try Invocation.parse(["play", "a.wav", "--ipc", "/tmp/s"]) else {
            Issue.record("not play")
            return
        }
        #expect(options.ipcPath == "/tmp/s" && !options.noIPC)
        guard case .play(let none) = try Invocation.parse(["play", "a.wav", "--no-ipc"]) else { return }
        #expect(none.noIPC)
        #expect(throws: UsageError.self) { try Invocation.parse(["play", "a.wav", "--no-ipc", "--ipc", "/tmp/s"]) }
        #expect(throws: UsageError.self) { try Invocation.parse(["tracks", "--ipc", "/tmp/s"]) }
    }
}
