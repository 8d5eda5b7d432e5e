internal import AliciaCurl
import AliciaLocks

/// What a live stream says of itself: its station (`icy-name`) and what plays now (`StreamTitle`),
/// as the reader reaches it.
public struct LiveStreamInfo: Sendable, Equatable {
    public var name: String?
    public var title: String?
}

/// A live stream's titles: those the fetch thread has taken out of the body wait at the stream
/// offset where they start, and become the title when the reader gets there (a title is heard with
/// its song, not a read-ahead early).
struct LiveState {
    var info: LiveStreamInfo
    /// Bumped whenever `info` changes.
    var changes = 0
    private var pending: [(offset: Int64, title: String)] = []
    /// The last title the stream sent (stations repeat it in every block).
    private var lastSent: String?
    /// Titles waiting at most: a station that sends one per block cannot grow memory.
    static let pendingLimit = 16

    init(name: String?) { info = LiveStreamInfo(name: name) }

    /// Keeps a title the stream sent at `offset`; false when it is the one it sent last.
    mutating func add(_ title: String, at offset: Int64) -> Bool {
        guard title != lastSent else { return false }
        lastSent = title
        if pending.count == Self.pendingLimit { pending.removeFirst() }
        pending.append((offset, title))
        return true
    }

    /// The reader has read at `offset`: the last title that starts there or before is the title.
    mutating func reached(_ offset: Int64) {
        var newest: String?
        while let first = pending.first, first.offset <= offset {
            newest = first.title
            pending.removeFirst()
        }
        if let newest, newest != info.title {
            info.title = newest
            changes += 1
        }
    }
}

/// Live streams (internet radio, as Icecast and SHOUTcast serve it): an answer with ICY headers.
/// It is read once through at the network's rate: no ranges, no size, no tail;
/// `Icy-MetaData: 1` is asked on every request, and a server that says `icy-metaint` has its
/// titles taken out of the audio; a dropped connection asks for the stream again (it goes on from
/// the live point, not from a byte offset).
extension RangeFetcher {
    /// The live stream's name and title, and a count that changes with them; nil for a file.
    var liveStream: (info: LiveStreamInfo, changes: Int)? {
        shared.withLock { s in s.live.map { ($0.info, $0.changes) } }
    }

    var isLive: Bool { shared.withLock { $0.live != nil } }

    /// Whether a whole (200) answer is a live stream's: ICY headers, which Icecast and SHOUTcast
    /// send. A body without a length and without them (a synthesis on a pipe, chunked) has an end,
    /// and is read to it as any other.
    static func isLiveAnswer(_ easy: CurlEasy) -> Bool {
        ["icy-metaint", "icy-name", "icy-br", "icy-genre", "icy-description"].contains { easy.header($0) != nil }
    }

    /// Fetch thread: a 200 answer that is (or goes on) a live stream; its body goes where the ring
    /// ends. The first one turns the window live.
    func takeLiveAnswer(_ request: RangeRequest, _ easy: CurlEasy) -> Validation {
        if identity == nil { _ = sameFile(total: nil, ranges: false, easy) }
        let name = easy.header("icy-name").map(\.trimmed).flatMap { $0.isEmpty ? nil : $0 }
        let first = shared.withLock { s -> Bool in
            guard s.live == nil else { return false }
            s.window.goLive()
            s.live = LiveState(name: name)
            return true
        }
        rememberWhereRedirectsEnded(easy)
        if first {
            Log.info(.fetch, "\(location.display) is a live stream" + (name.map { " (\($0))" } ?? "")
                + (easy.header("icy-metaint").map { ", titles every \($0) bytes" } ?? ""))
        } else {
            Log.info(.fetch, "\(location.display): the live stream again, from byte \(request.start) of what was heard")
        }
        return .body(request.start)
    }

    /// Fetch thread: body bytes of a stream with in-band titles. The audio goes to the window; the
    /// titles wait at their offsets. When the window cannot take it, nothing is kept (libcurl
    /// hands the same bytes again after the pause), the demultiplexer's state included.
    func receiveInterleaved(_ bytes: UnsafeRawBufferPointer, _ metadata: ICYMetadata, at offset: Int64) -> (Int, ICYMetadata?) {
        var demultiplexer = metadata
        var audio: [UInt8] = []
        audio.reserveCapacity(bytes.count)
        let titles = demultiplexer.split(bytes, into: &audio)
        switch audio.withUnsafeBytes({ take($0) }) {
        case .consumed:
            if !titles.isEmpty {
                let new = shared.withLock { s in
                    titles.filter { s.live?.add($0.title, at: offset + Int64($0.at)) == true }
                }
                for title in new { Log.info(.fetch, "\(location.display): \"\(title.title)\" from byte \(offset + Int64(title.at))") }
            }
            return (bytes.count, demultiplexer)
        case .full: return (CurlEasy.pauseTransfer, nil)
        case .stale: return (0, nil)
        }
    }
}
