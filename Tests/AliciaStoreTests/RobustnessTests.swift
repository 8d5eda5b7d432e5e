#if canImport(Glibc)
import Glibc
#endif
import Testing
import AliciaLocks
import AliciaStore

@Suite struct RobustnessTests {
    @Test func aFileThatIsNotSQLiteIsOneClearErrorAndIsLeftAlone() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let path = scratch.file("library.db")
        let text = Array(String(repeating: "not a database at all\n", count: 400).utf8)
        try scratch.write(text, to: path)
        do {
            _ = try LibraryStore(path: path)
            Issue.record("a text file was opened as the library")
        } catch {
            guard case .notADatabase(path, let detail) = error else {
                Issue.record("not .notADatabase: \(error)")
                return
            }
            #expect(detail.primaryCode == SQLiteError.notADatabase)
            #expect(error.message.hasPrefix("\(path) is not an alicia-player library database"), "\(error.message)")
            #expect(!error.message.contains("\n"))
        }
        #expect(ScratchDirectory.read(path) == text)
    }

    /// Page 1 (the header and the schema) intact, every other page overwritten.
    @Test func aDamagedDatabaseIsAnErrorNamingItNeverACrash() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let path = scratch.file("library.db")
        do {
            let store = try LibraryStore(path: path)
            let show = try store.upsertShow(url: "https://a.example/feed")
            let notes = String(repeating: "n", count: 500)
            _ = try store.upsertEpisodes((0..<2000).map { EpisodeInfo(guid: "\($0)", title: "E\($0)", notesHTML: notes) }, showID: show)
        }
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        #expect(fd >= 0)
        let garbage = [UInt8](repeating: 0x5A, count: 64 * 1024)
        var offset: off_t = 4096
        while offset < 1 << 20 {
            _ = garbage.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, offset) }
            offset += off_t(garbage.count)
        }
        close(fd)
        do {
            let store = try LibraryStore(path: path)
            _ = try store.episodes()
            _ = try store.shows()
            Issue.record("a damaged database read as sound")
        } catch {
            switch error {
            case .corrupt(path, let detail), .notADatabase(path, let detail):
                #expect(error.message.contains(path) && error.message.contains(detail.message), "\(error.message)")
            default: Issue.record("not .corrupt: \(error)")
            }
        }
    }

    /// Two connections on two threads, one of them writing big batches of episodes, saving positions
    /// at once into a database neither has made yet: no SQLITE_BUSY escapes, every write lands.
    @Test func twoConnectionsWritingAtOnceBothLand() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let path = scratch.file("library.db")
        let start = try TestPipe()
        let startEnd = start.readEnd
        let failures = Locked<[String]>([])
        let count = 300
        let threads = ["A", "B"].map { writer in
            NativeThread(name: "writer \(writer)") {
                do {
                    let store = try LibraryStore(path: path)
                    guard TestPipe.await(startEnd) else { return }
                    let show = try store.upsertShow(url: "https://\(writer).example/feed")
                    for index in 0..<count {
                        try store.savePosition(PositionRecord(positionMS: Int64(index), durationMS: nil, played: false, updatedMS: 1),
                                               for: "\(writer)-\(index)")
                        if writer == "B" && index % 60 == 0 {
                            _ = try store.upsertEpisodes((0..<2000).map { EpisodeInfo(guid: "\(index)-\($0)", title: "x") }, showID: show)
                        }
                    }
                } catch {
                    failures.withLock { $0.append("\(writer): \(error)") }
                }
            }
        }
        withExtendedLifetime(start) {
            start.signal(2)
            threads.forEach { $0.join() }
        }
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
        let store = try LibraryStore(path: path)
        #expect(try store.positions().count == 2 * count)
        #expect(try store.episodes().count == 5 * 2000)
    }
}

/// The tests that run this binary again as child processes, one at a time.
@Suite(.serialized) struct ProcessRobustnessTests {
    /// Two processes (each its own program, as a Studio and a `play`) open a database neither has
    /// made and save positions at once, both of them to one shared key too.
    @Test func twoProcessesSavingAtOnceNeitherFailsNorLosesAWrite() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let path = scratch.file("data/library.db")
        let ready = try TestPipe()
        let go = try TestPipe()
        let count = 400
        let children = try ["A", "B"].map { writer throws(TestFailure) in
            try StoreChild.spawn(role: "write-positions",
                                 environment: ["ALICIA_STORE_DB": path, "ALICIA_STORE_WRITER": writer, "ALICIA_STORE_COUNT": "\(count)"],
                                 descriptors: [ready.writeEnd, go.readEnd], output: scratch.file("child-\(writer).txt"))
        }
        ready.closeWriteEnd()
        #expect(TestPipe.await(ready.readEnd, count: 2), "a child ended before it was ready")
        go.signal(2)
        for child in children {
            let status = child.wait()
            #expect(status == 0, "child ended with \(status): \(child.printed)")
        }
        let store = try LibraryStore(path: path)
        let positions = try store.positions()
        #expect(positions.count == 2 * count + 1)
        #expect((0..<count).allSatisfy { positions["A-\($0)"]?.positionMS == Int64($0) && positions["B-\($0)"]?.positionMS == Int64($0) })
        #expect(positions["shared"]?.positionMS == Int64(2 * (count - 1) + 1), "the newest save of the shared key won")
    }

    /// `kill -9` in the middle of a big transaction (its pages spilled into the log already): the
    /// database opens sound, with what was committed before and nothing of the transaction.
    @Test func killedMidTransactionTheDatabaseIsConsistentAndWritable() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let path = scratch.file("library.db")
        var baseline: [String: PositionRecord] = [:]
        do {
            let store = try LibraryStore(path: path)
            let show = try store.upsertShow(url: "https://base.example/feed", metadata: ShowMetadata(title: "Committed"))
            _ = try store.upsertEpisodes((0..<100).map { EpisodeInfo(guid: "\($0)", title: "Base \($0)", published: Int64($0)) }, showID: show)
            for index in 0..<100 {
                baseline["baseline-\(index)"] = PositionRecord(positionMS: Int64(index), durationMS: nil, played: false, updatedMS: 10)
            }
            try store.savePositions(baseline)
        }
        let ready = try TestPipe()
        let hold = try TestPipe()
        let child = try StoreChild.spawn(role: "crash-in-transaction", environment: ["ALICIA_STORE_DB": path],
                                         descriptors: [ready.writeEnd, hold.readEnd], output: scratch.file("child.txt"))
        ready.closeWriteEnd()
        // `hold` stays open until the child is dead: it is what the child waits on.
        let (midway, status) = withExtendedLifetime(hold) {
            let midway = TestPipe.await(ready.readEnd)
            kill(child.pid, SIGKILL)
            return (midway, child.wait())
        }
        #expect(midway, "the child ended before its transaction was under way (\(status)): \(child.printed)")
        #expect(status == 128 + SIGKILL)
        var log = stat()
        #expect(stat(path + "-wal", &log) == 0 && log.st_size > 4 << 20, "the transaction's pages had not spilled into the log")

        let store = try LibraryStore(path: path)
        let check = try SQLiteDatabase(path: path).withStatement("PRAGMA integrity_check") { statement throws(SQLiteError) in
            try statement.step() ? statement.string(at: 0) : ""
        }
        #expect(check == "ok")
        #expect(try store.shows().map(\.metadata.title) == ["Committed"])
        #expect(try store.episodes().count == 100)
        #expect(try store.positions() == baseline)
        let show = try store.upsertShow(url: "https://after.example/feed")
        #expect(try store.upsertEpisodes([EpisodeInfo(guid: "1", title: "After")], showID: show).inserted.count == 1)
    }
}
