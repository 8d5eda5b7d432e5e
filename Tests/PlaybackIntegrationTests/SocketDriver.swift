import AliciaTestSupport
import Foundation
import Testing

/// Python scripts that drive a player through its control socket, as a client that is not ours
/// would: the socket, chapter and vocabulary tests' drivers.
enum SocketDriver {
    /// `Client`, a connection to the socket in Python (`line`, `raw`, `ask`, `reply`, `ok`, `event`;
    /// events that come before a reply are kept aside), put before every driver that asks for it.
    /// A driver names the socket `path` before it makes one.
    static let client = #"""
        import json, socket, sys, time

        class Client:
            def __init__(self):
                self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self.s.settimeout(20)
                self.s.connect(path)
                self.buf = b""
                self.events = []

            def line(self):
                while b"\n" not in self.buf:
                    chunk = self.s.recv(65536)
                    if not chunk:
                        return None
                    self.buf += chunk
                text, self.buf = self.buf.split(b"\n", 1)
                return json.loads(text)

            def raw(self, data):
                self.s.sendall(data)
                return self.reply()

            def ask(self, *command, rid=None):
                message = {"command": list(command)}
                if rid is not None:
                    message["request_id"] = rid
                return self.raw((json.dumps(message) + "\n").encode())

            def reply(self):
                while True:
                    m = self.line()
                    assert m is not None, "the connection closed before the reply"
                    if "event" in m:
                        self.events.append(m)
                        continue
                    return m

            def ok(self, *command):
                r = self.ask(*command)
                assert r["error"] == "success", f"{command}: {r}"
                return r.get("data")

            def event(self, kind, **fields):
                """The next event `kind` with these fields; the ones before it are dropped."""
                while True:
                    while self.events:
                        e = self.events.pop(0)
                        if e.get("event") == kind and all(e.get(k) == v for k, v in fields.items()):
                            return e
                    m = self.line()
                    assert m is not None, f"the connection closed before {kind} {fields}"
                    self.events.append(m)
        """#

    /// Plays `arguments` with `--ipc` into a fresh capture sink, inside the playback gate. Once the
    /// socket answers, `before` runs with its path, then `script` (after ``client`` unless
    /// `withClient` is false) with the socket's path and `scriptArguments`: it must print "ok", and
    /// the player exit 0 (the script quits it). Returns the socket's path.
    @discardableResult
    static func run(_ script: String, withClient: Bool = true, playing arguments: [String], with scriptArguments: [String],
                    in directory: TemporaryDirectory, timeout: Duration = .seconds(120), client name: String = "the Python client",
                    sourceLocation: SourceLocation = #_sourceLocation,
                    before: (String) async throws -> Void = { _ in }) async throws -> String {
        let driver = try directory.write(Array(((withClient ? client + "\n\n" : "") + script).utf8), as: "driver.py")
        let socket = directory.file("socket")
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        try await Playback.gated {
            let player = try PlayerProcess.start(["play"] + arguments + ["--ipc", socket, "--device", capture.sinkName])
            try await ControlSocketTests.waitForSocket(socket, player: player)
            try await before(socket)
            let python = try await ChildProcess.run("python3", [driver, socket] + scriptArguments, timeout: timeout)
            if python.status != 0 { player.send(SIGTERM) }
            #expect(python.status == 0 && python.stdoutText == "ok\n", "\(name): \(python.stdoutText) \(python.stderrText)",
                    sourceLocation: sourceLocation)
            let result = try await PlayerProcess.result(of: player, timeout: .seconds(30))
            #expect(result.status == 0, "\(result)", sourceLocation: sourceLocation)
        }
        _ = await capture.finish(quietFor: .milliseconds(200))
        return socket
    }
}
