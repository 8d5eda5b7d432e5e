import AliciaBackend
import AliciaLocks

/// The listening reports' outbox: events go into the library database before any send, and a
/// thread of its own posts them to `/api/episode_day` in order, one at a time, acting on the
/// client's outcome (`ReportSender`). It survives a crash (what was written is sent by the next
/// run) and a backend's outage (what is not taken waits, with back-off, and the rest behind it).
///
/// | thread | owns | waits on |
/// | --- | --- | --- |
/// | the host's loop | `enqueue` (a lock and an append: no I/O) | nothing |
/// | `alicia-reports` | its `LibraryStore` connection, its `BackendClient` | `shared`: events, a retry falling due, the close |
package final class ReportOutbox: Sendable {
    package struct Settings: Sendable {
        /// The library database (`LibraryStore.defaultPath`).
        package var databasePath: String
        package var backend: BackendConfiguration
        package var backoff: ReportBackoff
        /// One line when reporting first fails and one when it recovers (from the outbox's thread).
        package var notify: @Sendable (String) -> Void

        package init(databasePath: String, backend: BackendConfiguration, backoff: ReportBackoff = ReportBackoff(),
                     notify: @escaping @Sendable (String) -> Void) {
            self.databasePath = databasePath
            self.backend = backend
            self.backoff = backoff
            self.notify = notify
        }
    }

    /// What the outbox has done, for tests and the log.
    package struct Counts: Sendable, Equatable {
        /// Events written to the database.
        package var written = 0
        package var accepted = 0
        package var dropped = 0
        /// Sends that did not take (the event kept).
        package var kept = 0
        /// The sender has stopped (closed, or the database could not be opened).
        package var stopped = false
    }

    /// Between the host's loop and the sender; under `shared`'s lock.
    struct Shared {
        /// Made and not yet written, in order.
        var incoming: [EpisodeDayEvent] = []
        /// Closing: the monotonic time the sending stops, whatever is left (it stays for the next run).
        var closeBy: Double?
        var counts = Counts()
    }

    /// How long a closing outbox goes on sending what waits (seconds): the end of an episode is
    /// usually told before the command exits, and a backend that does not answer holds the exit
    /// no longer than this.
    package static let closeGrace = 2.0

    private let shared: ConditionLock<Shared>
    private let thread: NativeThread

    /// Starts the sender, which first sends what an earlier run left for this backend.
    package init(_ settings: Settings) {
        let shared = ConditionLock(Shared())
        self.shared = shared
        thread = NativeThread(name: "alicia-reports") { ReportSender(settings, shared: shared).run() }
    }

    /// Hands `events` to the sender, in order. Never blocks on the database or the network.
    package func enqueue(_ events: [EpisodeDayEvent]) {
        guard !events.isEmpty else { return }
        shared.update { $0.incoming += events }
    }

    /// Starts closing: what was enqueued is written, and the sender goes on sending what waits for
    /// `grace` seconds at most, or until the backend does not take one. Returns at once.
    package func beginClosing(grace: Double = ReportOutbox.closeGrace) {
        shared.update { state in
            if state.closeBy == nil { state.closeBy = MonotonicClock.seconds() + grace }
        }
    }

    /// Closes (`beginClosing` if it was not) and waits for the sender to stop: at most the grace
    /// and a second and a half beyond it (a request is cancelled about once a second). Idempotent.
    package func close(grace: Double = ReportOutbox.closeGrace) {
        beginClosing(grace: grace)
        let patience = shared.withLock { state in max(0, (state.closeBy ?? 0) - MonotonicClock.seconds()) } + 1.5
        if !thread.join(within: .milliseconds(Int((patience * 1000).rounded(.up)))) {
            Log.info(.reports, "listening reports: the sender did not stop in time; what it had not sent waits for the next run")
        }
    }

    /// What it has done so far.
    package var counts: Counts { shared.withLock { $0.counts } }

    /// Waits until `condition` holds for the counts or `timeout` passes; whether it held.
    package func wait(timeout: Duration, until condition: @escaping (Counts) -> Bool) -> Bool {
        shared.withLock(waitingUntil: { condition($0.counts) }, timeout: timeout) { condition($0.counts) }
    }
}
