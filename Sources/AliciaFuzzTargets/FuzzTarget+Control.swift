import AliciaControl
import AliciaLocks

extension FuzzTarget {
    /// The control socket's JSON lines, through the request parser and the command dispatch, on a
    /// session whose references all lead to a missing file (so nothing plays). Input: up to 8
    /// lines, each answered before the next, from an empty queue.
    static let controlJSON = FuzzTarget(name: "control-json", about: "the control socket's JSON lines and command dispatch") { bytes in
        controlHarness.withLock { harness in
            let control = harness ?? ControlRequestHarness()
            harness = control
            defer { control.reset() }
            for line in bytes.pieces(8) {
                guard let reply = control.handle(Array(line)) else {
                    preconditionFailure("a control request had no reply within 5 s")
                }
                precondition(reply.last == UInt8(ascii: "\n") && reply.dropLast().allSatisfy { $0 != UInt8(ascii: "\n") },
                             "a control reply is not one line")
            }
        }
    }

    /// One session for every input: making one starts two players' threads.
    private static let controlHarness = Locked<ControlRequestHarness?>(nil)
}
