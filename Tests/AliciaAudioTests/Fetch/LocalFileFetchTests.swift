#if canImport(Glibc)
import Glibc
#endif
import Testing
import AliciaTestSupport
@testable import AliciaAudio

/// A local file goes through the same window as a download, read with `pread` on the fetch thread
/// instead of libcurl's `file://`: the bytes at any offset, seeks back and forth, the end of the
/// file, and the errors a listener sees.
@Suite struct LocalFileFetchTests {
    /// 3 MiB whose values name their offsets, so any splice or shift shows.
    static let bytes: [UInt8] = (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ $0 >> 11) }

    /// Reads `count` bytes at `offset`; what the reads gave up on, if anything.
    private func read(_ fetcher: RangeFetcher, at offset: Int, count: Int) -> ([UInt8], ByteRead?) {
        var buffer = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = buffer.withUnsafeMutableBytes { raw in
                fetcher.read(at: Int64(offset + done), into: UnsafeMutableRawBufferPointer(rebasing: raw[done...]))
            }
            guard case .bytes(let n) = got else { return (Array(buffer[..<done]), got) }
            done += n
        }
        return (buffer, nil)
    }

    @Test("the bytes at any offset, in any order, through a ring smaller than the file; the end of the file")
    func readsAnywhere() throws {
        let directory = try TemporaryDirectory(prefix: "local-fetch")
        let path = try directory.write(Self.bytes, as: "episode.wav")
        let fetcher = try RangeFetcher(location: MediaLocation(path), readAhead: 256 * 1024)
        fetcher.start()
        defer { fetcher.close() }
        #expect(fetcher.length() == Int64(Self.bytes.count))
        // Straight through the first MiB (the ring refills as it drains), then far jumps both ways.
        let (first, stopped) = read(fetcher, at: 0, count: 1 << 20)
        #expect(stopped == nil && first == Array(Self.bytes[..<(1 << 20)]))
        for offset in [(2 << 20) + 5, 4_099, (3 << 20) - 70_000, 1 << 20] {
            let (got, stopped) = read(fetcher, at: offset, count: 65_536)
            #expect(stopped == nil, "read at \(offset) stopped: \(String(describing: stopped))")
            #expect(got == Array(Self.bytes[offset..<(offset + 65_536)]), "bytes at \(offset)")
        }
        let (tail, end) = read(fetcher, at: Self.bytes.count - 100, count: 200)
        #expect(tail == Array(Self.bytes[(Self.bytes.count - 100)...]))
        #expect(end == .endOfFile)
        #expect(fetcher.failure == nil)
    }

    @Test("a missing file and a FIFO are refused with what and where, before any thread starts")
    func refusals() throws {
        let directory = try TemporaryDirectory(prefix: "local-fetch")
        let missing = directory.path + "/nothere.wav"
        #expect(throws: PlaybackError.cannotOpenFile(path: missing, reason: "No such file or directory")) {
            _ = try RangeFetcher(location: MediaLocation(missing), readAhead: 65_536)
        }
        // Opening a FIFO for reading would block until a writer came: it is refused unopened.
        let fifo = directory.path + "/pipe.wav"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: PlaybackError.cannotOpenFile(path: fifo, reason: "not a regular file")) {
            _ = try RangeFetcher(location: MediaLocation(fifo), readAhead: 65_536)
        }
    }

    /// `/proc/self/mem` is a regular file that opens, and whose first page (address 0, never
    /// mapped) answers `pread` with EIO: a read error, said as one, not as a file that did not open.
    @Test("a file that opens but cannot be read says so: 'cannot read PATH: Input/output error'")
    func aReadErrorIsSaidAsOne() throws {
        let file = try LocalFile(path: "/proc/self/mem")
        var buffer = [UInt8](repeating: 0, count: 4096)
        let result = buffer.withUnsafeMutableBytes { file.read(at: 0, into: $0, path: "/proc/self/mem") }
        #expect(result == .failure(.cannotReadFile(path: "/proc/self/mem", reason: "Input/output error")))
        #expect(PlaybackError.cannotReadFile(path: "/proc/self/mem", reason: "Input/output error").message
            == "cannot read /proc/self/mem: Input/output error")
    }
}
