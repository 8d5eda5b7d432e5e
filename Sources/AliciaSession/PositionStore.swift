#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaJSON
import AliciaLocks

/// Where an episode was left, as saved.
public struct SavedPosition: Equatable, Sendable {
    /// Seconds into the episode.
    public var position: Double
    public var duration: Double?
    /// Heard to within its last 30 s: it starts from the beginning next time (and shows ✓).
    public var played: Bool
    /// When it was saved, in seconds since 1970.
    public var updated: Double

    public init(position: Double, duration: Double?, played: Bool, updated: Double) {
        self.position = position
        self.duration = duration
        self.played = played
        self.updated = updated
    }
}

/// The resume positions of every episode, in `$XDG_STATE_HOME/alicia-player/positions.json`
/// (mode 0600), shared by every running instance.
///
/// A save takes an exclusive advisory lock (`flock` on `positions.json.lock`), reads what is on
/// disk, puts this instance's changes over it (the newer of two saves of one episode wins, so two
/// players never lose each other's positions), and replaces the file atomically: a temporary file,
/// fsync, rename, fsync of the directory. A file that cannot be read as positions is moved aside
/// (`positions.json.corrupt-<time>`) with a warning, and playback goes on.
public final class PositionStore {
    public let directory: String
    public var path: String { directory + "/positions.json" }
    private var lockPath: String { directory + "/positions.json.lock" }
    /// What the file held when last read, with this instance's changes over it.
    private var positions: [String: SavedPosition] = [:]
    /// Changed here since the last save.
    private var changed: Set<String> = []
    /// Said once each (a file moved aside, a directory that cannot be made).
    public private(set) var warnings: [String] = []

    /// An episode heard to within this many seconds of its end is played (AntennaPod's rule)...
    public static let playedMargin = 30.0
    /// ...or to within this share of its length, when that is less: a 20 s item is not played at 0:01.
    public static let playedShare = 0.1

    /// Whether `position` of `duration` counts as heard to the end.
    public static func isPlayed(position: Double, duration: Double?) -> Bool {
        guard let duration, duration > 0 else { return false }
        return duration - position <= min(playedMargin, duration * playedShare)
    }

    // The file, `{"version": 2, "positions": {KEY: {"position_ms", "duration_ms", "played",
    // "updated_ms"}}}` (milliseconds, the last since 1970: integers), is read and written
    // through the JSON tree directly. This runs every 5 s while playing: the Codable machinery,
    // sorting and float printing would each bring a 64 KiB window of the static Swift runtime
    // into the resident set for it (DECISIONS.md, "Link order").

    static func decode(_ bytes: [UInt8]) -> [String: SavedPosition]? {
        guard case .object(let root)? = JSONValue(parsing: bytes),
              case .object(let entries)? = root.first(where: { $0.key == "positions" })?.value else { return nil }
        var positions: [String: SavedPosition] = [:]
        for entry in entries {
            guard case .object(let fields) = entry.value else { return nil }
            func field(_ name: String) -> JSONValue? { fields.first { $0.key == name }?.value }
            guard case .number(let position)? = field("position_ms"), case .bool(let played)? = field("played"),
                  case .number(let updated)? = field("updated_ms") else { return nil }
            var duration: Double?
            if case .number(let value)? = field("duration_ms") { duration = value / 1000 }
            positions[entry.key] = SavedPosition(position: position / 1000, duration: duration, played: played,
                                                 updated: updated / 1000)
        }
        return positions
    }

    static func encode(_ positions: [String: SavedPosition]) -> [UInt8]? {
        func milliseconds(_ seconds: Double) -> JSONValue {
            .number(seconds.isFinite ? (max(0, seconds) * 1000).rounded() : 0)
        }
        var entries: [JSONValue.Member] = []
        for (key, saved) in positions {
            var fields: [JSONValue.Member] = []
            if let duration = saved.duration { fields.append(.init("duration_ms", milliseconds(duration))) }
            fields.append(.init("played", .bool(saved.played)))
            fields.append(.init("position_ms", milliseconds(saved.position)))
            fields.append(.init("updated_ms", milliseconds(saved.updated)))
            entries.append(.init(key, .object(fields)))
        }
        return JSONValue.object([.init("positions", .object(entries)), .init("version", .number(2))]).text(layout: .indented)
    }

    public init(directory: String) {
        self.directory = directory
        positions = withLock { readFile() } ?? [:]
    }

    /// `$XDG_STATE_HOME/alicia-player`, or `~/.local/state/alicia-player`.
    public static func defaultDirectory() -> String? {
        if let state = getenv("XDG_STATE_HOME").map({ String(cString: $0) }), state.hasPrefix("/") {
            return state + "/alicia-player"
        }
        guard let home = getenv("HOME").map({ String(cString: $0) }), !home.isEmpty else { return nil }
        return home + "/.local/state/alicia-player"
    }

    public func position(for key: String) -> SavedPosition? { positions[key] }

    /// The key an item's position is kept under: its label, else its path, else its URL without the
    /// token (which must never be written anywhere).
    public static func key(label: String?, location: MediaLocation) -> String {
        if let label, !label.isEmpty { return label }
        if let path = location.filePath { return path }
        guard let query = location.url.firstIndex(of: "?") else { return location.url }
        let kept = location.url[location.url.index(after: query)...].split(separator: "&")
            .filter { !$0.lowercased().hasPrefix("token=") }
        return String(location.url[..<query]) + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&"))
    }

    public var all: [String: SavedPosition] { positions }

    /// Notes where `key` stands now; `save()` writes it.
    public func record(_ key: String, position: Double, duration: Double?) {
        let played = Self.isPlayed(position: position, duration: duration)
        let saved = SavedPosition(position: played ? 0 : max(0, position), duration: duration, played: played,
                                  updated: Self.now())
        if positions[key] == saved { return }
        positions[key] = saved
        changed.insert(key)
    }

    /// Takes `saved` for `key` when it is newer than what is known here (a position heard on
    /// another device, from a sync server); `save()` writes it, by the same newer-wins rule. Whether
    /// it was taken: an older one never replaces a newer one.
    @discardableResult
    public func adopt(_ key: String, _ saved: SavedPosition) -> Bool {
        if let known = positions[key], known.updated >= saved.updated { return false }
        positions[key] = saved
        changed.insert(key)
        return true
    }

    /// Notes that `key` was heard to its end: it starts from the beginning next time.
    public func markPlayed(_ key: String, duration: Double?) {
        positions[key] = SavedPosition(position: 0, duration: duration, played: true, updated: Self.now())
        changed.insert(key)
    }

    /// Writes this instance's changes, merged with the file as it is now. Returns false (with a
    /// warning) when it cannot.
    @discardableResult
    public func save() -> Bool {
        guard !changed.isEmpty else { return true }
        return withLock { () -> Bool in
            // A file there but unreadable (permissions, no descriptors left) is not replaced by this
            // instance's few positions: nothing is written.
            guard var merged = readFile() else { return false }
            for key in changed {
                guard let mine = positions[key] else { continue }
                if let theirs = merged[key], theirs.updated >= mine.updated, theirs != mine { continue }
                merged[key] = mine
            }
            guard writeFile(merged) else { return false }
            positions = merged
            changed.removeAll()
            return true
        }
    }

    /// How far to step back when resuming after `seconds` away (AntennaPod's steps).
    public static func rewind(afterPause seconds: Double) -> Double {
        switch seconds {
        case ..<60: return 0
        case ..<3600: return 3
        case ..<86_400: return 10
        default: return 20
        }
    }

    /// Seconds since 1970, to the millisecond the file keeps (so a time read back compares equal).
    public static func now() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Double(Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000) / 1000
    }

    // MARK: The file

    private func warn(_ text: String) {
        if !warnings.contains(text) { warnings.append(text) }
    }

    /// Runs `body` holding the lock file exclusively (or without it, with a warning, when the
    /// directory cannot be made).
    private func withLock<R>(_ body: () -> R) -> R {
        guard makeDirectory() else { return body() }
        let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            warn("cannot open \(lockPath): \(String(cString: strerror(errno)))")
            return body()
        }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 && errno == EINTR {}
        defer { flock(fd, LOCK_UN) }
        return body()
    }

    private func makeDirectory() -> Bool {
        var path = ""
        for part in directory.split(separator: "/") {
            path += "/" + part
            if mkdir(path, 0o700) != 0 && errno != EEXIST {
                warn("cannot make \(path) for resume positions: \(String(cString: strerror(errno)))")
                return false
            }
        }
        return true
    }

    /// The positions on disk; a file that is not positions is moved aside.
    private func readFile() -> [String: SavedPosition]? {
        // Positions of thousands of episodes fit in a few hundred KiB: more is not our file.
        let bytes: [UInt8]
        switch AtomicFile.read(path) {
        case .success(let read): bytes = read
        case .failure(let failure) where failure.isMissing: return [:]
        case .failure(let failure) where failure.errno != EFBIG:
            warn("cannot read \(failure.message)")
            return nil
        case .failure: bytes = [0]
        }
        if bytes.isEmpty { return [:] }
        if let positions = Self.decode(bytes) { return positions }
        let aside = path + ".corrupt-\(Int(Self.now()))"
        if rename(path, aside) == 0 {
            warn("\(path) could not be read as resume positions; moved it to \(aside) and started afresh")
        } else {
            warn("\(path) could not be read as resume positions (\(String(cString: strerror(errno))))")
        }
        return [:]
    }

    private func writeFile(_ positions: [String: SavedPosition]) -> Bool {
        guard let bytes = Self.encode(positions) else {
            warn("cannot encode the resume positions")
            return false
        }
        if case .failure(let failure) = AtomicFile.write(bytes, to: path) {
            warn("cannot save the resume positions in \(path): \(failure.reason)")
            return false
        }
        return true
    }
}
