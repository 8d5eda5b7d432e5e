#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaBackend
import AliciaLocks
import AliciaSession
import AliciaStore

/// Listening reports for a session host (issue 43): the `ListeningReporter`'s rules fed each turn,
/// its events into the `ReportOutbox`. The host calls `update` once a turn (after its front end's
/// turn), takes `deadline()` among its own, and `close` when it closes; a front end whose listener
/// chose an episode explicitly calls `selected`. Off with `--no-report`, `report = off` in the
/// config file, or without a backend.
package final class ListeningReports {
    private let reporter: ListeningReporter
    private let outbox: ReportOutbox
    private let clock: () -> Double

    package init(reporter: ListeningReporter = ListeningReporter(), outbox: ReportOutbox,
                 clock: @escaping () -> Double = MonotonicClock.seconds) {
        self.reporter = reporter
        self.outbox = outbox
        self.clock = clock
    }

    /// Reports to `backend` unless reporting is turned off (`turnedOff`: `--no-report`; the config
    /// file's `report`), there is no backend, or no place for the library database. `notify` gets
    /// one line when reporting first fails and one when it recovers (from the outbox's thread).
    package static func start(backend: BackendConfiguration?, turnedOff: Bool,
                              notify: @escaping @Sendable (String) -> Void) -> ListeningReports? {
        let environment = Self.environment()
        guard !turnedOff, let backend, isOn(ConfigurationLoader.fileValue("report", environment: environment), warn: notify),
              let path = LibraryStore.defaultPath(environment: environment) else { return nil }
        return ListeningReports(outbox: ReportOutbox(ReportOutbox.Settings(databasePath: path, backend: backend, notify: notify)))
    }

    /// One turn of the host: the notices it read, the episode player's snapshot now.
    package func update(_ notices: [SessionNotice], _ snapshot: PlayerSnapshot) {
        outbox.enqueue(reporter.update(notices, snapshot, at: clock()))
    }

    /// When the reporter needs the next turn (monotonic seconds), if it does.
    package func deadline() -> Double? {
        reporter.deadline()
    }

    /// The listener chose `item` (a key, a click, a command naming it): `selected`, when it is one
    /// of Alicia's episodes. Never called for what plays next by itself.
    package func selected(_ item: QueueItem) {
        if let event = reporter.selected(item) { outbox.enqueue([event]) }
    }

    /// The session closes (its players held, `snapshot` read since): what was heard goes into the
    /// outbox, which goes on sending for a grace period. Returns at once; `finish()` waits.
    package func close(_ snapshot: PlayerSnapshot) {
        outbox.enqueue(reporter.close(snapshot, at: clock()))
        outbox.beginClosing()
    }

    /// Waits for the outbox to stop (at most its grace and a little).
    package func finish() {
        outbox.close()
    }

    /// The config file's `report` value: on unless `off` (or false, no, 0); a value that is
    /// neither is said and leaves reporting on.
    package static func isOn(_ value: String?, warn: (String) -> Void) -> Bool {
        guard let value else { return true }
        switch value.lowercased() {
        case "off", "false", "no", "0": return false
        case "on", "true", "yes", "1": return true
        default:
            warn("report '\(value)' in the config file is not on or off: listening reports stay on")
            return true
        }
    }

    /// What finds the config file and the library database.
    private static func environment() -> [String: String] {
        var values: [String: String] = [:]
        for key in ["XDG_CONFIG_HOME", "XDG_DATA_HOME", "HOME"] {
            if let value = getenv(key) { values[key] = String(cString: value) }
        }
        return values
    }
}
