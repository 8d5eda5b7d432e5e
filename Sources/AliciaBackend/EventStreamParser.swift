/// An incremental parser of `text/event-stream` (the WHATWG server-sent events
/// format) as Alicia's `/api/chat` sends it: feed it bytes as they arrive, in any
/// split, and take the events it completes.
///
/// Lines end with `\r\n`, `\n` or `\r`; a line starting with `:` is a comment
/// (keep-alive); `field: value` sets a field (one leading space dropped; unknown
/// fields ignored); a blank line dispatches the event. A line longer than
/// `maximumLineBytes`, or an event whose `data` lines add up to more than `maximumEventBytes`, is an
/// error, so a hostile server cannot exhaust memory (with short lines alone, an event that never
/// ends would otherwise grow without bound).
public struct EventStreamParser: Sendable {
    public struct Event: Sendable, Equatable {
        public var type = "message"
        public var data: String
        public var id: String?
    }

    /// A line, or an event's data, past its limit; `limit` is the limit that was passed.
    public struct LineTooLong: Error, Equatable, Sendable {
        public let limit: Int
    }

    public let maximumLineBytes: Int
    public let maximumEventBytes: Int
    private var line: [UInt8] = []
    private var data: [UInt8] = []
    private var hasData = false
    private var type = ""
    private var lastID: String?
    /// The previous byte was `\r`: a `\n` right after it ends nothing more.
    private var afterCarriageReturn = false
    /// The limit that was passed, once one was: every later `feed` throws it again.
    private var failure: LineTooLong?

    /// A chat reply is a few KiB of tokens, one event each: 1 MiB a line and 4 MiB an event leave
    /// room for anything real.
    public init(maximumLineBytes: Int = 1 << 20, maximumEventBytes: Int = 4 << 20) {
        self.maximumLineBytes = maximumLineBytes
        self.maximumEventBytes = maximumEventBytes
    }

    /// Takes the next bytes; returns the events they complete.
    public mutating func feed<Bytes: Sequence<UInt8>>(_ bytes: Bytes) throws(LineTooLong) -> [Event] {
        if let failure { throw failure }
        var events: [Event] = []
        for byte in bytes {
            if afterCarriageReturn {
                afterCarriageReturn = false
                if byte == UInt8(ascii: "\n") { continue }
            }
            switch byte {
            case UInt8(ascii: "\r"):
                afterCarriageReturn = true
                if let event = try endLine() { events.append(event) }
            case UInt8(ascii: "\n"):
                if let event = try endLine() { events.append(event) }
            default:
                guard line.count < maximumLineBytes else {
                    failure = LineTooLong(limit: maximumLineBytes)
                    throw LineTooLong(limit: maximumLineBytes)
                }
                line.append(byte)
            }
        }
        return events
    }

    /// The stream closed: an event still being built (no blank line after it) is
    /// dispatched all the same (unless a limit was passed: then nothing is).
    public mutating func finish() -> Event? {
        guard failure == nil else { return nil }
        if !line.isEmpty {
            do {
                _ = try endLine()
            } catch {
                return nil
            }
        }
        return dispatch()
    }

    private mutating func endLine() throws(LineTooLong) -> Event? {
        defer { line.removeAll(keepingCapacity: true) }
        if line.isEmpty { return dispatch() }
        if line.first == UInt8(ascii: ":") { return nil }
        let field: ArraySlice<UInt8>
        var value: ArraySlice<UInt8>
        if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            field = line[..<colon]
            value = line[(colon + 1)...]
            if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        } else {
            field = line[...]
            value = []
        }
        switch String(decoding: field, as: UTF8.self) {
        case "data":
            guard data.count + value.count + 1 <= maximumEventBytes else {
                failure = LineTooLong(limit: maximumEventBytes)
                throw LineTooLong(limit: maximumEventBytes)
            }
            if hasData { data.append(UInt8(ascii: "\n")) }
            data.append(contentsOf: value)
            hasData = true
        case "event":
            type = String(decoding: value, as: UTF8.self)
        case "id":
            if !value.contains(0) { lastID = String(decoding: value, as: UTF8.self) }
        default:
            break
        }
        return nil
    }

    private mutating func dispatch() -> Event? {
        defer {
            data.removeAll(keepingCapacity: true)
            hasData = false
            type = ""
        }
        guard hasData else { return nil }
        return Event(type: type.isEmpty ? "message" : type, data: String(decoding: data, as: UTF8.self), id: lastID)
    }
}
