#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaSession
import AliciaLocks

/// The control socket's handling of request lines without a socket, for the fuzz target
/// `control-json` (Sources/AliciaFuzzTargets): each line goes through `IPCRequest.parse` and
/// `ControlLoop.execute` as a client's would, against a session of its own. Every reference
/// (`loadfile`, `voice`) is read as `MediaLocation` reads it, then resolves to a file that does not
/// exist, so the queue fills and the index commands have entries to work on, while nothing is ever
/// fetched or heard (an item that cannot open never gets a sound server's stream). Work handed to
/// the session's thread runs on the caller's (it is the session's thread here); a reply that comes
/// later is waited for, so every line is answered before the next. The queue is emptied after each
/// input, so memory stays flat however many go through. One thread at a time.
package final class ControlRequestHarness {
    private let session: ListeningSession
    private let loop: ControlLoop
    private let connection = Connection(id: 1, descriptor: -1)

    /// Where every reference leads: nowhere.
    static let missing = "/nonexistent/alicia-control-harness.wav"

    package init() {
        var options = ListeningSession.Options()
        options.configuration.network.giveUpAfter = 0.5
        session = ListeningSession(options)
        let hooks = ControlServer.Hooks(version: "harness") { reference in
            _ = try? MediaLocation(reference)
            guard let location = try? MediaLocation(Self.missing) else { return .failure(ControlProblem("no location")) }
            return .success([QueueItem(location: location, title: String(reference.prefix(80)))])
        }
        loop = ControlLoop(session: session, listener: nil, inbox: Inbox(), hooks: hooks)
    }

    /// Handles one request line: its reply line (waited for when it comes later, for at most
    /// `patience` seconds; nil past that).
    @discardableResult
    package func handle(_ line: [UInt8], patience: Double = 5) -> [UInt8]? {
        let request: IPCRequest
        switch IPCRequest.parse(line) {
        case .failure(let bad):
            return IPCRequest.reply(id: bad.id, .failure(bad.failure))
        case .success(let parsed):
            request = parsed
        }
        if let result = loop.execute(request, from: connection) {
            _ = session.notices()
            return IPCRequest.reply(id: request.id, result)
        }
        let deadline = MonotonicClock.seconds() + patience
        while MonotonicClock.seconds() < deadline {
            _ = session.notices()
            if let done = loop.inbox.take().last { return IPCRequest.reply(id: done.request, done.result) }
            var ready = pollfd(fd: loop.inbox.readDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&ready, 1, 1)
        }
        return nil
    }

    /// Back to an empty queue and the player's defaults, no observers, no disabled events: the state
    /// every input starts from.
    package func reset() {
        for command: TransportCommand in [.stop, .loop(.set(.off)), .speed(.set(1)), .sleep(.set(.off)),
                                          .skipSilence(.set(.off)), .loudness(.off), .volume(.set(100)), .mute(.off)] {
            session.perform(command)
        }
        _ = session.notices()
        _ = loop.inbox.take()
        connection.observed.removeAll()
        connection.disabled.removeAll()
    }
}
