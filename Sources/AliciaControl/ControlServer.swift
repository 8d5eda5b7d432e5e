#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaJSON
import AliciaSession
import AliciaLocks

// Thread map (keep it true):
// | thread         | owns                                                    | waits on            |
// | alicia-control | the listening socket, every connection, the MPRIS bus   | one poll(): the socket, connections, both players' event pipes, the bus, its wake pipe |
// | alicia-ipc-work| one slow request (resolving a reference, a chat)         | the network         |
// | the session's  | the ListeningSession: changes arrive as mailbox closures | its own loop        |
// Reads (properties, status) come straight from the players, which are thread-safe; changes go
// through the session's mailbox, so the front-end's loop stays the session's only owner.

/// The remote control of one listening session: an mpv-compatible JSON IPC server on a Unix
/// socket and, when a session bus answers, MPRIS. One thread, one poll loop.
public final class ControlServer: Sendable {
    /// What the server cannot do from the session alone: turn a reference into items.
    public struct Hooks: Sendable {
        public var version: String
        /// The items `loadfile REF` plays (runs on a thread of its own: it may ask the backend).
        public var resolve: @Sendable (String) -> Result<[QueueItem], ControlProblem>

        public init(version: String, resolve: @escaping @Sendable (String) -> Result<[QueueItem], ControlProblem>) {
            self.version = version
            self.resolve = resolve
        }
    }

    private let inbox: Inbox
    private let thread: NativeThread
    private let listener: ControlSocket.Listener?

    /// Serves `session` on `listener` (nil: no socket) and, when `mpris`, on the session bus.
    /// Call from the session's thread; `close` before the session closes.
    public init(session: ListeningSession, listener: ControlSocket.Listener?, mpris: Bool, hooks: Hooks) {
        let inbox = Inbox()
        self.inbox = inbox
        self.listener = listener
        let loop = Unchecked(ControlLoop(session: session, listener: listener, inbox: inbox, hooks: hooks))
        thread = NativeThread(name: "alicia-control") {
            loop.value.run(mpris: mpris)
        }
    }

    /// Says `end-file` (quit) and `shutdown` to every client, closes them and the socket (its file
    /// removed). Idempotent.
    public func close() {
        guard inbox.stop() else { return }
        thread.join()
        listener?.close()
    }

    /// The socket's path, when there is one.
    public var socketPath: String? { listener?.path }
}

/// Why something a remote command asked for could not be done, in one line.
public struct ControlProblem: Error, Sendable {
    public let message: String
    public init(_ message: String) { self.message = message }
}

/// A value handed to the control thread once, then owned by it alone.
struct Unchecked<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// Where other threads leave work for the control thread: finished requests and the stop flag,
/// with a pipe that wakes its poll.
final class Inbox: Sendable {
    struct Completion: Sendable {
        var connection: Int
        var request: Int64
        var result: IPCResult
        /// The request did not hold its connection's later lines back.
        var isAsync: Bool
        /// A text command line: answered only when it failed.
        var isText = false
    }

    private struct State {
        var completions: [Completion] = []
        var stopping = false
    }

    private let state = Locked(State())
    private let pipe = WakePipe()
    var readDescriptor: Int32 { pipe.readDescriptor }

    func complete(_ completion: Completion) {
        state.withLock { $0.completions.append(completion) }
        wake()
    }

    /// True the first time.
    func stop() -> Bool {
        let first = state.withLock { s -> Bool in
            defer { s.stopping = true }
            return !s.stopping
        }
        wake()
        return first
    }

    var isStopping: Bool { state.withLock { $0.stopping } }

    func take() -> [Completion] {
        pipe.drain()
        return state.withLock { s in
            defer { s.completions.removeAll() }
            return s.completions
        }
    }

    func wake() {
        pipe.wake()
    }
}

/// One client of the socket.
final class Connection {
    let id: Int
    let descriptor: Int32
    /// Bytes of a line not ended yet.
    var input: [UInt8] = []
    /// Lines read while an earlier request of this client runs (replies keep their order).
    var waiting: [[UInt8]] = []
    var busy = false
    var output: [UInt8] = []
    var outputStart = 0
    /// Observed properties: the observer's id, the property, what was sent last and when.
    var observed: [(id: Int64, name: String, last: JSONValue?, sentAt: Double)] = []
    var name: String?
    /// Events this client asked not to get (`disable_event`); "all" for every one.
    var disabled: Set<String> = []
    /// Close once the output is written (a line too long, a client too slow).
    var closing = false
    /// The client has shut down its writing side (`echo '{…}' | socat - UNIX-CONNECT:…`): it is
    /// answered what it sent, then closed.
    var readClosed = false

    init(id: Int, descriptor: Int32) {
        self.id = id
        self.descriptor = descriptor
    }

    var pendingOutput: Int { output.count - outputStart }

    func wants(_ event: String) -> Bool {
        !disabled.contains("all") && !disabled.contains(event)
    }
}

/// The control thread's state and its loop.
final class ControlLoop {
    let view: SessionView
    let remote: RemoteMailbox
    let listener: ControlSocket.Listener?
    let inbox: Inbox
    let hooks: ControlServer.Hooks
    private let events: PlayerSubscription
    private let voiceEvents: PlayerSubscription?
    private var connections: [Connection] = []
    private var nextConnection = 1
    private var translator = EventTranslator()
    private var mpris: MPRISService?
    /// Something happened this turn that may change what observers see (an event of either player,
    /// a command's reply, a new observer): they are read again at the end of the turn.
    private var changed = false
    /// When the position heard next crosses a whole second while playing (monotonic seconds): the
    /// properties that move with playback (time-pos, time left, the sleep timer) are read again then.
    private var tick: Double?
    /// What reads from the clients land in (one buffer for all of them).
    private var buffer = [UInt8](repeating: 0, count: 16 * 1024)

    /// A line longer than this is refused and its connection closed.
    static let maximumLine = 64 * 1024
    /// A client this far behind in reading its replies and events is disconnected.
    static let maximumBacklog = 1024 * 1024

    init(session: ListeningSession, listener: ControlSocket.Listener?, inbox: Inbox, hooks: ControlServer.Hooks) {
        view = session.view
        remote = session.remote
        self.listener = listener
        self.inbox = inbox
        self.hooks = hooks
        events = view.subscribe()
        voiceEvents = view.subscribeVoice()
    }

    func run(mpris wantsMPRIS: Bool) {
        if wantsMPRIS { mpris = MPRISService.open(loop: self) }
        defer { mpris?.close() }
        while !inbox.isStopping {
            var fds = [pollfd(fd: inbox.readDescriptor, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: events.fileDescriptor, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: voiceEvents?.fileDescriptor ?? -1, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: listener?.descriptor ?? -1, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: mpris?.descriptor ?? -1, events: mpris?.pollEvents ?? 0, revents: 0)]
            let first = fds.count
            let polled = connections
            for connection in polled {
                var wanted = connection.readClosed ? Int16(0) : Int16(POLLIN)
                if connection.pendingOutput > 0 { wanted |= Int16(POLLOUT) }
                fds.append(pollfd(fd: connection.descriptor, events: wanted, revents: 0))
            }
            _ = poll(&fds, nfds_t(fds.count), pollTimeout())

            if fds[0].revents != 0 {
                changed = true
                for completion in inbox.take() { finish(completion) }
            }
            if fds[3].revents & Int16(POLLIN) != 0 { accept() }
            for (offset, connection) in polled.enumerated() {
                let revents = fds[first + offset].revents
                if revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 { read(connection) }
            }
            for event in fds[1].revents != 0 ? events.drain() : [] {
                changed = true
                for (name, fields) in translator.translate(event) { broadcast(name, fields) }
                mpris?.playerEvent(event)
            }
            if let voiceEvents, fds[2].revents != 0, let queue = view.voiceQueue {
                changed = true
                for event in voiceEvents.drain() {
                    for (name, fields) in translator.translateVoice(event, queue: queue) { broadcast(name, fields) }
                }
            }
            if let bus = mpris, !bus.process() {
                Log.info(.cli, "MPRIS: the session bus went away; going on without it")
                bus.close()
                mpris = nil
            }
            let now = MonotonicClock.seconds()
            if let due = tick, now >= due { changed = true }
            if changed {
                changed = false
                if watching { refresh(now: now) }
                tick = nextTick(now: now)
            }
            for connection in connections { flush(connection) }
            connections.removeAll { connection in
                let answered = connection.readClosed && !connection.busy && connection.waiting.isEmpty
                guard (connection.closing || answered) && connection.pendingOutput == 0 else { return false }
                close(connection.descriptor)
                return true
            }
        }
        shutdown()
    }

    /// Anyone to keep up to date: observers, or a bus whose clients read properties.
    private var watching: Bool {
        mpris != nil || connections.contains { !$0.observed.isEmpty }
    }

    /// The poll's wait: until the bus's own timeout or the next second of playback, whichever is
    /// first (-1: until something happens).
    private func pollTimeout() -> Int32 {
        var timeout: Int32 = -1
        if let tick {
            timeout = Int32(max(0, min(1000, ((tick - MonotonicClock.seconds()) * 1000).rounded(.up))))
        }
        if let busTimeout = mpris?.timeout, busTimeout >= 0 { timeout = timeout < 0 ? busTimeout : min(timeout, busTimeout) }
        return timeout
    }

    /// While something plays and anyone watches: when the position heard crosses its next whole
    /// second (at the speed playing), at least once a second.
    private func nextTick(now: Double) -> Double? {
        guard watching else { return nil }
        let snapshot = view.snapshot()
        guard [.playing, .loading, .buffering, .reconnecting, .voicing].contains(snapshot.state) || !view.voiceIsIdle else { return nil }
        let speed = max(0.1, snapshot.speed)
        let untilNextSecond = (1 - snapshot.position.truncatingRemainder(dividingBy: 1)) / speed
        return now + min(1, max(0.05, untilNextSecond))
    }

    // MARK: Connections

    private func accept() {
        guard let listener else { return }
        while true {
            let fd = Glibc.accept(listener.descriptor, nil, nil)
            guard fd >= 0 else { return }
            setNonBlockingCloseOnExec(fd)
            connections.append(Connection(id: nextConnection, descriptor: fd))
            nextConnection += 1
        }
    }

    private func read(_ connection: Connection) {
        guard !connection.closing, !connection.readClosed else { return }
        while true {
            let n = Glibc.read(connection.descriptor, &buffer, buffer.count)
            if n < 0 && (errno == EAGAIN || errno == EINTR) { break }
            guard n > 0 else {
                // Its writing side is shut (or it has gone): what it sent whole is answered, then
                // the connection closes; an unfinished last line is a line too.
                connection.readClosed = true
                if !connection.input.isEmpty {
                    connection.waiting.append(connection.input)
                    connection.input.removeAll()
                }
                break
            }
            var start = 0
            var tooLong = false
            for index in 0..<n where buffer[index] == UInt8(ascii: "\n") {
                if connection.input.count + index - start > Self.maximumLine {
                    tooLong = true
                    break
                }
                connection.input.append(contentsOf: buffer[start..<index])
                connection.waiting.append(connection.input)
                connection.input.removeAll(keepingCapacity: true)
                start = index + 1
            }
            if !tooLong { connection.input.append(contentsOf: buffer[start..<n]) }
            if tooLong || connection.input.count > Self.maximumLine {
                // The lines before it are answered; it and what follows are not.
                handleWaiting(connection)
                connection.waiting.removeAll()
                send(IPCRequest.reply(id: 0, .failure(IPCFailure(.invalidParameter, "a line is at most 64 KiB"))), to: connection)
                connection.closing = true
                return
            }
            if n < buffer.count { break }
        }
        handleWaiting(connection)
    }


    /// Handles the lines read, in order, until one has to wait for the session.
    private func handleWaiting(_ connection: Connection) {
        while !connection.busy, !connection.closing, !connection.waiting.isEmpty {
            let line = connection.waiting.removeFirst()
            guard line.contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") && $0 != UInt8(ascii: "\r") }) else {
                continue
            }
            switch IPCRequest.parse(line) {
            case .failure(let bad):
                send(IPCRequest.reply(id: bad.id, .failure(bad.failure)), to: connection)
            case .success(let request) where request.isText && request.command.isEmpty:
                // A comment line.
                continue
            case .success(let request):
                changed = true
                if let result = execute(request, from: connection) {
                    answer(request, result, connection)
                    sendFirstValues(connection)
                } else if !request.isAsync {
                    connection.busy = true
                }
            }
        }
    }

    /// A JSON request's reply; a text command line (mpv's) gets none, but for a failure.
    private func answer(_ request: IPCRequest, _ result: IPCResult, _ connection: Connection) {
        if request.isText, case .success = result { return }
        send(IPCRequest.reply(id: request.id, result), to: connection)
    }

    private func finish(_ completion: Inbox.Completion) {
        guard let connection = connections.first(where: { $0.id == completion.connection }) else { return }
        var failed = false
        if case .failure = completion.result { failed = true }
        if !completion.isText || failed { send(IPCRequest.reply(id: completion.request, completion.result), to: connection) }
        if !completion.isAsync {
            connection.busy = false
            handleWaiting(connection)
        }
    }

    func send(_ bytes: [UInt8], to connection: Connection) {
        guard !connection.closing else { return }
        if connection.outputStart > 0 && connection.outputStart >= connection.output.count / 2 {
            connection.output.removeFirst(connection.outputStart)
            connection.outputStart = 0
        }
        connection.output += bytes
        if connection.pendingOutput > Self.maximumBacklog {
            // Too slow to keep up: the events it misses would be lost anyway.
            Log.info(.cli, "control socket: a client fell more than 1 MiB behind and was disconnected")
            connection.output.removeAll()
            connection.outputStart = 0
            connection.closing = true
        }
    }

    private func flush(_ connection: Connection) {
        while connection.pendingOutput > 0 {
            let written = connection.output.withUnsafeBytes { raw in
                Glibc.send(connection.descriptor, raw.baseAddress! + connection.outputStart, connection.pendingOutput, Int32(MSG_NOSIGNAL))
            }
            if written > 0 {
                connection.outputStart += written
                continue
            }
            if written < 0 && (errno == EAGAIN || errno == EINTR) { return }
            // EPIPE and the like: the client has gone.
            connection.output.removeAll()
            connection.outputStart = 0
            connection.closing = true
            return
        }
        connection.output.removeAll(keepingCapacity: connection.output.capacity <= 64 * 1024)
        connection.outputStart = 0
    }

    private func broadcast(_ name: String, _ fields: [JSONValue.Member]) {
        let line = IPCRequest.event(name, fields)
        for connection in connections where connection.wants(name) && !connection.closing { send(line, to: connection) }
    }

    /// The end: `end-file` (quit) for the item heard, `shutdown`, and every connection written out
    /// (for at most a second) and closed.
    private func shutdown() {
        // Replies finished before the stop (a `quit`'s own, which caused it) go out first.
        for completion in inbox.take() { finish(completion) }
        for (name, fields) in translator.quit() { broadcast(name, fields) }
        broadcast("shutdown", [])
        let deadline = MonotonicClock.seconds() + 1
        while connections.contains(where: { $0.pendingOutput > 0 }) && MonotonicClock.seconds() < deadline {
            var fds = connections.map { pollfd(fd: $0.descriptor, events: Int16(POLLOUT), revents: 0) }
            _ = poll(&fds, nfds_t(fds.count), 50)
            for connection in connections { flush(connection) }
        }
        for connection in connections { close(connection.descriptor) }
        connections.removeAll()
    }

    // MARK: Observed properties

    private func refresh(now: Double) {
        let reading = self.reading()
        for connection in connections where !connection.observed.isEmpty && !connection.closing {
            for index in connection.observed.indices {
                let observer = connection.observed[index]
                let value = (try? SessionProperties.get(observer.name, reading).get()) ?? .null
                guard let last = observer.last, value != last else { continue }
                if SessionProperties.property(named: observer.name)?.isContinuous == true, last != .null, value != .null,
                   now - observer.sentAt < 1, !translator.seekedSinceRefresh {
                    continue
                }
                connection.observed[index].last = value
                connection.observed[index].sentAt = now
                send(propertyChange(observer.id, observer.name, value), to: connection)
            }
        }
        translator.seekedSinceRefresh = false
        mpris?.refresh(reading)
    }

    func propertyChange(_ id: Int64, _ name: String, _ value: JSONValue) -> [UInt8] {
        var fields: [JSONValue.Member] = [.init("id", .number(Double(id))), .init("name", .string(name))]
        if value != .null { fields.append(.init("data", value)) }
        return IPCRequest.event("property-change", fields)
    }

    /// The first value of each property a client has just begun to observe.
    private func sendFirstValues(_ connection: Connection) {
        guard connection.observed.contains(where: { $0.last == nil }) else { return }
        let reading = self.reading()
        let now = MonotonicClock.seconds()
        for index in connection.observed.indices where connection.observed[index].last == nil {
            let observer = connection.observed[index]
            let value = (try? SessionProperties.get(observer.name, reading).get()) ?? .null
            connection.observed[index].last = value
            connection.observed[index].sentAt = now
            send(propertyChange(observer.id, observer.name, value), to: connection)
        }
    }

    // MARK: Work elsewhere

    /// A request answered later: the function to call (from any thread, once) with its result.
    func later(_ request: IPCRequest, _ connection: Connection) -> @Sendable (IPCResult) -> Void {
        let inbox = self.inbox
        let (client, id, isAsync, isText) = (connection.id, request.id, request.isAsync, request.isText)
        return { result in inbox.complete(.init(connection: client, request: id, result: result, isAsync: isAsync, isText: isText)) }
    }

    /// Runs `work` on a thread of its own (it may wait on the network); it answers through `done`.
    func elsewhere(_ request: IPCRequest, _ connection: Connection,
                   _ work: @escaping @Sendable (_ done: @escaping @Sendable (IPCResult) -> Void) -> Void) -> IPCResult? {
        let done = later(request, connection)
        _ = NativeThread(name: "alicia-ipc-work") { work(done) }
        return nil
    }
}

/// O_NONBLOCK and FD_CLOEXEC on a descriptor (accept4 and pipe2 are not in Swift's Glibc).
func setNonBlockingCloseOnExec(_ fd: Int32) {
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
}
