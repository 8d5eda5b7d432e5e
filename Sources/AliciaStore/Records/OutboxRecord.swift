/// One listening report waiting in the outbox (`report_outbox`): the event's JSON as it will be
/// sent, and how its sending has gone so far. The store does not read the JSON.
package struct OutboxRecord: Equatable, Sendable {
    /// Its place in the order written (smaller: older).
    package var seq: Int64
    /// The base URL of the backend it is for.
    package var backend: String
    package var eventID: String
    package var body: String
    /// When it was written, UNIX milliseconds.
    package var queuedMS: Int64
    /// Sends that did not take.
    package var attempts = 0
    /// Not to be sent again before this, UNIX milliseconds.
    package var nextTryMS: Int64 = 0
    /// Why the last send did not take.
    package var lastError: String?
}
