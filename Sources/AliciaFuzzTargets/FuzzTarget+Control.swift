import AliciaControl
import Synchronization

extension FuzzTarget {
    /// The control socket's JSON lines, through the request parser and the command dispatch, on an
    /// idle session where nothing resolves (so nothing plays). Input: up to 8 lines.
    static let controlJSON = FuzzTarget(name: "control-json", about: "the control socket's JSON lines and command dispatch") { bytes in
        harness.withLock { harness in
            let control = harness ?? ControlRequestHarness()
            harness = control
            for line in bytes.pieces(8) {
                if let reply = control.handle(Array(line)) {
                    precondition(reply.last == UInt8(ascii: "\n") && reply.dropLast().allSatisfy { $0 != UInt8(ascii: "\n") },
                                 "a control reply is not one line")
                }
            }
        }
    }

    /// One session for every input: making one starts two players' threads.
    private static let harness = Mutex<ControlRequestHarness?>(nil)
}
