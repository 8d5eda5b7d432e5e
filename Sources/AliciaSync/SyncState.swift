import AliciaJSON
import AliciaStore

/// What a sync remembers between passes, as one JSON value in the library database's `kv`
/// (`sync.state`), for one account (`identity`): a new server, user or device starts afresh.
package struct SyncState: Codable, Equatable, Sendable {
    package static let key = "sync.state"

    package var identity: String
    /// The server's timestamps from its last replies: where the next pass asks from.
    package var subscriptionsSince: Int64 = 0
    package var actionsSince: Int64 = 0
    /// The feed URLs the account and this library agreed on at the last pass: what was added or
    /// removed here since is the difference.
    package var known: [String] = []
    /// Positions saved here up to this time (UNIX ms) were uploaded; downloads likewise.
    package var uploadedMS: Int64 = 0
    package var downloadsMS: Int64 = 0
    /// Episodes first seen up to this time (UNIX seconds) went as `new`.
    package var newSince: Int64 = 0
    /// The downloaded episodes at the last upload (position keys): one gone since was deleted.
    package var downloaded: [String] = []
    /// Per position key, the last position sent or taken (its save time and where it stood): a
    /// position taken from the server is not sent back, and the next `play` action starts there.
    package var last: [String: Mark] = [:]
    /// Alicia's episodes heard here, by label: the names they are synced under (her backend has no
    /// feed, so the list they come from, `/api/tracks`, stands for one; their URLs have no token).
    package var aliases: [String: SyncAlias] = [:]
    /// When the last pass ended (UNIX ms), and what went wrong in the last that failed (nil once
    /// one succeeds).
    package var lastSyncMS: Int64?
    package var lastError: String?
    /// A failure was said (one line) and no pass has succeeded since.
    package var failing = false

    package struct Mark: Codable, Equatable, Sendable {
        /// The position's save time, UNIX ms.
        package var ms: Int64
        /// Where it stood, seconds.
        package var at: Int
    }

    /// At most this many aliases are kept (the newest win): a season or two of her episodes.
    static let aliasLimit = 2_000

    package init(identity: String) {
        self.identity = identity
    }

    /// The state kept for `account`, or a fresh one.
    package static func load(_ store: LibraryStore, for account: SyncAccount) throws(SyncError) -> SyncState {
        do {
            if let text = try store.value(forKey: key), let state = try? JSON.decode(SyncState.self, from: Array(text.utf8)),
               state.identity == account.identity {
                return state
            }
        } catch {
            throw SyncError("sync: \(error.message)")
        }
        return SyncState(identity: account.identity)
    }

    package func save(_ store: LibraryStore) throws(SyncError) {
        do {
            let bytes = try JSON.encode(self)
            try store.setValue(String(decoding: bytes, as: UTF8.self), forKey: Self.key)
        } catch let error as LibraryError {
            throw SyncError("sync: \(error.message)")
        } catch {
            throw SyncError("sync: its state could not be encoded")
        }
    }
}

/// How one of Alicia's episodes is named to a sync server.
package struct SyncAlias: Codable, Equatable, Sendable {
    /// Her backend's `/api/tracks` (scheme, host and port of where it plays from).
    package var podcast: String
    /// Its media URL, without the token.
    package var episode: String
    /// `episode:<label>`, as her own app names it.
    package var guid: String

    package init(podcast: String, episode: String, guid: String) {
        self.podcast = podcast
        self.episode = episode
        self.guid = guid
    }

    /// The alias of an item with `label` playing from `url` (its token already taken out); nil for
    /// anything that is not an http(s) URL.
    package init?(label: String, url: String) {
        let lower = url.lowercased()
        guard !label.isEmpty, lower.hasPrefix("http://") || lower.hasPrefix("https://"), !lower.contains("token="),
              let colon = url.firstIndex(of: ":") else { return nil }
        let afterScheme = url.index(colon, offsetBy: 3)
        let host = url[afterScheme...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        self.init(podcast: String(url[..<afterScheme]) + host + "/api/tracks", episode: url, guid: Self.guidPrefix + label)
    }

    static let guidPrefix = "episode:"

    /// The label an action names, when it is one of her episodes by this player's naming.
    static func label(of action: EpisodeAction) -> String? {
        guard let guid = action.guid, guid.hasPrefix(guidPrefix), action.podcast.hasSuffix("/api/tracks"), guid.count > guidPrefix.count
        else { return nil }
        return String(guid.dropFirst(guidPrefix.count))
    }
}
