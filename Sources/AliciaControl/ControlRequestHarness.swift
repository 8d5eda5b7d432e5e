import AliciaAudio
import AliciaSession

/// The control socket's handling of request lines without a socket, for the fuzz target
/// `control-json` (Sources/AliciaFuzzTargets): each line goes through `IPCRequest.parse` and
/// `ControlLoop.execute` as a client's would, against an idle session whose `loadfile` and `voice`
/// resolve nothing, so nothing is ever fetched or played. Work handed to the session's thread runs
/// at once on the caller's (it is the session's thread here), and replies that come later are
/// collected, so memory stays flat however many lines go through. One thread at a time.
package final class ControlRequestHarness {
    private let session: ListeningSession
    private let loop: ControlLoop
    private let connection = Connection(id: 1, descriptor: -1)

    package init() {
        session = ListeningSession(ListeningSession.Options())
        let hooks = ControlServer.Hooks(version: "harness") { _ in .failure(ControlProblem("nothing resolves here")) }
        loop = ControlLoop(session: session, listener: nil, inbox: Inbox(), hooks: hooks)
    }

    /// Handles one request line: the reply line, or nil when the reply comes later.
    @discardableResult
    package func handle(_ line: [UInt8]) -> [UInt8]? {
        defer {
            _ = session.notices()
            _ = loop.inbox.take()
            connection.observed.removeAll()
            connection.disabled.removeAll()
        }
        switch IPCRequest.parse(line) {
        case .failure(let bad):
            return IPCRequest.reply(id: bad.id, .failure(bad.failure))
        case .success(let request):
            return loop.execute(request, from: connection).map { IPCRequest.reply(id: request.id, $0) }
        }
    }
}
