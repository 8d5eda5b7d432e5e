/// Listening evidence `POST /api/episode_day` recorded, in the order received; an event id seen
/// before is taken again without being recorded twice.
struct EpisodeDayLog: Sendable {
    private(set) var events: [DemoBackend.EpisodeDayRecord] = []
    private var seen: Set<String> = []

    /// Records `event`; false when its event id was recorded before.
    mutating func record(_ event: DemoBackend.EpisodeDayRecord) -> Bool {
        guard seen.insert(event.eventID).inserted else { return false }
        events.append(event)
        return true
    }

    /// The last `playing` or `progress` event: the latest playback the frame reports.
    var latestPlayback: DemoBackend.EpisodeDayRecord? {
        events.last { $0.action == "playing" || $0.action == "progress" }
    }
}
