#if canImport(Glibc)
import Glibc
#endif
import AliciaJSON
import AliciaLocks

/// Takes the state kept before the database (`$XDG_STATE_HOME/alicia-player/`, written by
/// `PositionStore`, `ContinueListening` and `ListenerState`) into it, inside the transaction that
/// creates the schema: if anything fails, nothing is imported and nothing is created, and the next
/// start tries again.
///
/// - `positions.json` (every resume position and played mark, `{"version": 2, "positions": {KEY:
///   {"position_ms", "duration_ms", "played", "updated_ms"}}}`) goes into `positions`, each key's
///   newer save winning over what the database holds. It is read under `positions.json.lock`, the
///   lock `PositionStore` saves under, held until the file is **renamed** to
///   `positions.json.imported` after the commit. Renamed, not marked: the name tells a person where
///   the positions went, and it makes a repeat impossible to miss, since an older alicia-player
///   still running that saves again writes a fresh `positions.json` of its newest positions, which
///   the next start takes in the same way (a repeat is harmless: the newer save of each key wins).
///   Killed between the commit and the rename, the next start imports the same file again, to the
///   same result.
/// - A `positions.json` that cannot be read as positions is moved aside to
///   `positions.json.corrupt-<time>` with a warning, as `PositionStore` does, and nothing of it is
///   imported. One that cannot be read at all (permissions) is left where it is, with a warning,
///   for the next start.
/// - `continue.m3u8` (the Studio's last queue, entry and position) and `state` (its volume and
///   speed) are copied as they are, into `kv` under `LibraryStore.continueListeningKey` and
///   `LibraryStore.listenerStateKey`, when the database is created only. They stay in place under
///   their names: the Studio reads and writes them until it is moved onto the database, and the
///   database's creation happens once, so the copy is not repeated.
/// - `loudness.json` is a cache of measurements (measured again when missing) and `queue.m3u8` a
///   list the listener saved by hand: neither is state to move, and both stay.
struct LegacyStateImport {
    let directory: String

    var positionsPath: String { directory + "/positions.json" }
    var lockPath: String { directory + "/positions.json.lock" }
    var continuePath: String { directory + "/continue.m3u8" }
    var statePath: String { directory + "/state" }

    var hasPositionsFile: Bool { access(positionsPath, F_OK) == 0 }

    /// Imports into `database` (inside the caller's transaction) and returns what is to be renamed
    /// once it commits, holding the positions' lock until then.
    func run(into database: SQLiteDatabase, created: Bool, warn: (String) -> Void) throws(SQLiteError) -> Imported? {
        if created {
            if let text = AtomicFile.text(continuePath, limit: 4 * 1024 * 1024) {
                try LibraryStore.setValue(text, forKey: LibraryStore.continueListeningKey, in: database)
            }
            if let text = AtomicFile.text(statePath, limit: 64 * 1024) {
                try LibraryStore.setValue(text, forKey: LibraryStore.listenerStateKey, in: database)
            }
        }
        guard hasPositionsFile else { return nil }
        let lock = Imported(lockPath: lockPath, from: positionsPath, warn: warn)
        guard let positions = readPositions(warn: warn) else { return nil }
        for (key, record) in positions {
            _ = try LibraryStore.merge(record, for: key, in: database)
        }
        return lock
    }

    /// The file's positions; nil when there is none to import (moved aside when it is not positions).
    private func readPositions(warn: (String) -> Void) -> [String: PositionRecord]? {
        let bytes: [UInt8]
        switch AtomicFile.read(positionsPath) {
        case .success(let read): bytes = read
        case .failure(let failure) where failure.isMissing: return nil
        case .failure(let failure) where failure.errno != EFBIG:
            warn("cannot read \(failure.message); its resume positions were not imported (tried again at the next start)")
            return nil
        // Positions of thousands of episodes fit in a few hundred KiB: 16 MiB and more is not the file.
        case .failure: bytes = [0]
        }
        if bytes.isEmpty { return [:] }
        if let positions = Self.decode(bytes) { return positions }
        let aside = positionsPath + ".corrupt-\(LibraryStore.nowSeconds())"
        if rename(positionsPath, aside) == 0 {
            warn("\(positionsPath) could not be read as resume positions; moved it to \(aside), nothing of it was imported")
        } else {
            warn("\(positionsPath) could not be read as resume positions (\(String(cString: strerror(errno)))); nothing of it was imported")
        }
        return nil
    }

    /// `PositionStore.decode`'s reading, in the database's units: any entry that is not a position
    /// makes the whole file unreadable, as it does there.
    static func decode(_ bytes: [UInt8]) -> [String: PositionRecord]? {
        guard case .object(let root)? = JSONValue(parsing: bytes),
              case .object(let entries)? = root.first(where: { $0.key == "positions" })?.value else { return nil }
        var positions: [String: PositionRecord] = [:]
        for entry in entries {
            guard case .object(let fields) = entry.value else { return nil }
            func field(_ name: String) -> JSONValue? { fields.first { $0.key == name }?.value }
            guard case .number(let position)? = field("position_ms"), case .bool(let played)? = field("played"),
                  case .number(let updated)? = field("updated_ms") else { return nil }
            var duration: Int64?
            if case .number(let value)? = field("duration_ms") { duration = PositionRecord.milliseconds(value / 1000) }
            positions[entry.key] = PositionRecord(positionMS: PositionRecord.milliseconds(position / 1000), durationMS: duration,
                                                  played: played, updatedMS: PositionRecord.milliseconds(updated / 1000))
        }
        return positions
    }

    /// Holds `positions.json.lock` (as `PositionStore`'s saves do) from before the file is read until
    /// it is renamed, so that no save of an older alicia-player falls between the two; closing the
    /// descriptor releases the lock.
    final class Imported {
        private let fd: Int32
        private let path: String

        /// Waits for the lock (a save holds it for milliseconds). Without a lock file (a read-only
        /// directory) the import goes on unlocked, with a warning, as `PositionStore` does.
        init(lockPath: String, from path: String, warn: (String) -> Void) {
            self.path = path
            fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            guard fd >= 0 else {
                warn("cannot open \(lockPath): \(String(cString: strerror(errno)))")
                return
            }
            while flock(fd, LOCK_EX) != 0 && errno == EINTR {}
        }

        deinit {
            if fd >= 0 { close(fd) }
        }

        /// Renames the imported file (`positions.json.imported`, or with the time added when an
        /// earlier import's file has that name); why not, if it could not be.
        func markImported() -> String? {
            var target = path + ".imported"
            if access(target, F_OK) == 0 { target += "-\(LibraryStore.nowMilliseconds())" }
            guard rename(path, target) == 0 else {
                return "cannot rename \(path) to \(target) after importing it (\(String(cString: strerror(errno)))); "
                    + "it will be imported again, which changes nothing"
            }
            let directory = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
            let directoryFD = open(directory.isEmpty ? "/" : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if directoryFD >= 0 {
                fsync(directoryFD)
                close(directoryFD)
            }
            return nil
        }
    }
}
