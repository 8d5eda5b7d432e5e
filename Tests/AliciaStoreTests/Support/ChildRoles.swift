#if canImport(Glibc)
import Glibc
#endif
import Testing
import AliciaStore

/// Not a test of its own: in a child process spawned by `StoreChild` it plays the role named by
/// `ALICIA_STORE_ROLE` and exits with its status; in the ordinary run it does nothing.
@Test func storeChildProcessRole() {
    guard let role = getenv(StoreChild.roleVariable).map({ String(cString: $0) }) else { return }
    let status: Int32
    do {
        status = try ChildRoles.play(role)
    } catch {
        print("child \(role): \(error)")
        status = 1
    }
    _exit(status)
}

/// What a child does. Descriptor 3 is its "ready" pipe to the parent, 4 the parent's "go" or "hold".
enum ChildRoles {
    static func variable(_ name: String) -> String { getenv(name).map { String(cString: $0) } ?? "" }

    static func play(_ role: String) throws -> Int32 {
        let path = variable("ALICIA_STORE_DB")
        switch role {
        case "crash-in-transaction": return try crashInTransaction(path)
        case "write-positions": return try writePositions(path, writer: variable("ALICIA_STORE_WRITER"),
                                                          count: Int(variable("ALICIA_STORE_COUNT")) ?? 0)
        default:
            print("no role \(role)")
            return 2
        }
    }

    /// Writes a big transaction (a new show's 20,000 episodes with a KiB of notes each: far more
    /// than SQLite's page cache, so pages spill into the log before the commit), says so on 3, and
    /// waits on 4 for ever: the parent kills it there, mid-transaction.
    static func crashInTransaction(_ path: String) throws -> Int32 {
        let store = try LibraryStore(path: path)
        let notes = String(repeating: "notes ", count: 180)
        try store.transaction { () throws(LibraryError) in
            let show = try store.upsertShow(url: "https://crash.example/feed", metadata: ShowMetadata(title: "Never committed"))
            let episodes = (0..<20_000).map { EpisodeInfo(guid: "crash-\($0)", title: "Crash \($0)", published: Int64($0), notesHTML: notes) }
            _ = try store.upsertEpisodes(episodes, showID: show)
            for index in 0..<2000 {
                try store.savePosition(PositionRecord(positionMS: 1, durationMS: 2, played: false, updatedMS: Int64(index)),
                                       for: "crash-\(index)")
            }
            try store.savePosition(PositionRecord(positionMS: 999_999, durationMS: nil, played: true, updatedMS: Int64.max / 2),
                                   for: "baseline-0")
            var byte: UInt8 = 1
            _ = write(3, &byte, 1)
            _ = read(4, &byte, 1)
            // Never to commit, whatever ended the wait.
            _exit(3)
        }
        return 3
    }

    /// Opens the store, says so on 3, waits for a byte on 4, then saves `count` positions of its
    /// own (one transaction each) and `count` saves of the key both writers share.
    static func writePositions(_ path: String, writer: String, count: Int) throws -> Int32 {
        let store = try LibraryStore(path: path)
        var byte: UInt8 = 1
        _ = write(3, &byte, 1)
        guard read(4, &byte, 1) == 1 else { return 4 }
        let show = try store.upsertShow(url: "https://shared.example/feed")
        for index in 0..<count {
            try store.savePosition(PositionRecord(positionMS: Int64(index), durationMS: 60_000, played: false, updatedMS: 1000),
                                   for: "\(writer)-\(index)")
            // Each writer's saves of the shared key are later than the other's of the same index.
            let shared = Int64(index) * 2 + (writer == "B" ? 1 : 0)
            try store.savePosition(PositionRecord(positionMS: shared, durationMS: nil, played: false, updatedMS: shared), for: "shared")
            if index % 50 == 0 {
                _ = try store.upsertEpisodes([EpisodeInfo(guid: "\(writer)-\(index)", title: "\(writer) \(index)")], showID: show)
            }
        }
        return 0
    }
}
