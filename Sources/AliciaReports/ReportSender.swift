import AliciaBackend
import AliciaJSON
import AliciaLocks
import AliciaStore

/// The `alicia-reports` thread of a `ReportOutbox`: it owns a connection to the library database
/// and a client of the backend, writes what the host's loop enqueued, and sends the oldest event
/// waiting for this backend, one at a time:
/// - `.accepted`: removed;
/// - `.dropped`: removed, and said in the log (the backend will never take it);
/// - `.keep`: stays at the head, tried again after a back-off (2 s doubling to 5 min), and
///   everything behind it waits: the order the events were made is the order they are sent.
/// A run tries at once what an earlier run left, whatever back-off it had. Reporting that fails is
/// said once (one line), and once more when it recovers.
final class ReportSender {
    private let settings: ReportOutbox.Settings
    private let shared: ConditionLock<ReportOutbox.Shared>
    /// The rows of this backend: its base URL (which holds no token).
    private let backendKey: String
    private var store: LibraryStore?
    private var client: BackendClient?
    /// The database may hold events of this backend (cleared when it has none, set by a write).
    private var waiting = true
    /// When the head may be sent again (monotonic seconds), after a send that did not take.
    private var retryAt: Double?
    /// Reporting failed and has not recovered since: said once.
    private var failing = false
    /// A problem with the database was said (once).
    private var storeProblemSaid = false

    init(_ settings: ReportOutbox.Settings, shared: ConditionLock<ReportOutbox.Shared>) {
        self.settings = settings
        self.shared = shared
        backendKey = settings.backend.baseURL
    }

    func run() {
        defer { shared.update { $0.counts.stopped = true } }
        do {
            store = try LibraryStore(path: settings.databasePath)
        } catch {
            settings.notify("listening reports are off: \(error.message)")
            discardUntilClosed()
            return
        }
        while true {
            let (batch, closeBy) = shared.withLock { state in
                defer { state.incoming.removeAll() }
                return (state.incoming, state.closeBy)
            }
            if !batch.isEmpty { write(batch) }
            let now = MonotonicClock.seconds()
            if let closeBy, now >= closeBy || retryAt != nil || !waiting { return }
            if waiting, retryAt.map({ now >= $0 }) ?? true {
                sendHead()
                continue
            }
            let timeout = retryAt.map { Duration.milliseconds(Int((max(0, $0 - now) * 1000).rounded(.up))) }
            shared.withLock(waitingUntil: { !$0.incoming.isEmpty || $0.closeBy != nil }, timeout: timeout) { _ in }
        }
    }

    /// Without a database nothing can be kept: what comes is let go until the outbox closes.
    private func discardUntilClosed() {
        while true {
            let closing = shared.withLock(waitingUntil: { !$0.incoming.isEmpty || $0.closeBy != nil }) { state in
                state.incoming.removeAll()
                return state.closeBy != nil
            }
            if closing { return }
        }
    }

    /// Writes `events` in one transaction, before any of them is sent.
    private func write(_ events: [EpisodeDayEvent]) {
        guard let store else { return }
        var rows: [(eventID: String, body: String)] = []
        for event in events {
            do {
                rows.append((event.eventID.text, String(decoding: try JSON.encode(event), as: UTF8.self)))
            } catch {
                Log.warning(.reports, "listening report \(event.eventID) could not be encoded: \(error)")
            }
        }
        do {
            let trimmed = try store.appendToOutbox(rows, backend: backendKey)
            if trimmed > 0 { Log.warning(.reports, "listening reports: \(trimmed) of the oldest left the outbox (it keeps \(LibraryStore.outboxLimit))") }
            waiting = true
            shared.update { $0.counts.written += rows.count }
        } catch {
            sayStoreProblem("listening reports could not be kept: \(error.message)")
        }
    }

    /// Sends the oldest event waiting, and acts on the outcome.
    private func sendHead() {
        guard let store else { return }
        let head: OutboxRecord?
        do {
            head = try store.outboxHead(backend: backendKey)
        } catch {
            sayStoreProblem("listening reports could not be read back: \(error.message)")
            retryAt = MonotonicClock.seconds() + settings.backoff.limit
            return
        }
        guard let head else {
            waiting = false
            return
        }
        switch send(head) {
        case .accepted:
            remove(head)
            shared.update { $0.counts.accepted += 1 }
            recovered()
        case .dropped(let why):
            remove(head)
            Log.warning(.reports, "listening report \(head.eventID) dropped: \(why)")
            shared.update { $0.counts.dropped += 1 }
            recovered()
        case .keep(let why):
            keep(head, because: why)
        }
    }

    private func send(_ record: OutboxRecord) -> EpisodeDayOutcome {
        let event: EpisodeDayEvent
        do {
            event = try JSON.decode(EpisodeDayEvent.self, from: Array(record.body.utf8))
        } catch {
            return .dropped("the event kept does not read back as one (\(error))")
        }
        guard let client = client ?? makeClient() else { return .keep("no client for the backend") }
        return client.episodeDay(event)
    }

    /// A client whose request ends once the outbox's grace is over.
    private func makeClient() -> BackendClient? {
        do {
            let made = try BackendClient(configuration: settings.backend)
            let shared = self.shared
            made.cancel { shared.withLock { state in state.closeBy.map { MonotonicClock.seconds() >= $0 } ?? false } }
            client = made
            return made
        } catch {
            Log.warning(.reports, "listening reports: \(error.message)")
            return nil
        }
    }

    /// The head stays; it is tried again after the back-off, and the rest waits behind it.
    private func keep(_ record: OutboxRecord, because why: String) {
        let delay = settings.backoff.delay(afterAttempts: record.attempts + 1)
        retryAt = MonotonicClock.seconds() + delay
        let nextTry = MonotonicClock.realtimeMilliseconds() + Int64(delay * 1000)
        do {
            try store?.deferOutbox(seq: record.seq, nextTryMS: nextTry, error: why)
        } catch {
            sayStoreProblem("listening reports could not be kept: \(error.message)")
        }
        shared.update { $0.counts.kept += 1 }
        Log.info(.reports, "listening report \(record.eventID) not taken (\(why)); again in \(Int(delay.rounded())) s")
        if !failing {
            failing = true
            settings.notify("listening reports are not reaching the backend (\(why)); they wait and go out when it answers")
        }
    }

    private func remove(_ record: OutboxRecord) {
        retryAt = nil
        do {
            try store?.removeFromOutbox(seq: record.seq)
        } catch {
            sayStoreProblem("listening reports could not be updated: \(error.message)")
        }
    }

    private func recovered() {
        guard failing else { return }
        failing = false
        settings.notify("listening reports reach the backend again")
    }

    private func sayStoreProblem(_ text: String) {
        Log.warning(.reports, text)
        if !storeProblemSaid {
            storeProblemSaid = true
            settings.notify(text)
        }
    }
}
