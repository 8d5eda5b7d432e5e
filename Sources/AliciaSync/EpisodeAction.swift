#if canImport(Glibc)
import Glibc
#endif
import AliciaBackend

/// One episode action as the gpodder.net API and Nextcloud's GPodder Sync carry them: what a device
/// did with an episode (`play` to a position, `download`, `delete`, `new`) and when, in UTC.
/// Positions are whole seconds, as the API has them.
package struct EpisodeAction: Codable, Equatable, Sendable {
    package enum Kind: String, Codable, Sendable {
        case play, download, delete, new
    }

    /// The feed's URL.
    package var podcast: String
    /// The media's URL.
    package var episode: String
    /// The episode's GUID from the feed, beside its URL: tracking prefixes change URLs.
    package var guid: String?
    package var action: Kind
    /// `YYYY-MM-DDThh:mm:ss`, UTC (the API's form: no zone letter).
    package var timestamp: String
    /// Seconds: where this stretch of playing started, where it stopped, the episode's length.
    package var started: Int?
    package var position: Int?
    package var total: Int?
    /// The device that did it (replies carry it; uploads name this device).
    package var device: String?

    /// `seconds` since 1970 as the API writes a time.
    package static func timestamp(_ seconds: Int) -> String {
        String(ISO8601UTC.format(seconds).dropLast())
    }

    /// The action's time in milliseconds since 1970, nil when it is not a time.
    package var milliseconds: Int64? {
        ISO8601UTC.parse(timestamp).map { Int64(($0 * 1000).rounded(.down)) }
    }
}

/// A subscriptions delta: URLs added and removed since a timestamp, or to be.
package struct SubscriptionChanges: Codable, Equatable, Sendable {
    package var add: [String] = []
    package var remove: [String] = []

    package var isEmpty: Bool { add.isEmpty && remove.isEmpty }
}
