import AliciaJSON
import AliciaSession

/// mpv's error strings, which clients of its JSON IPC compare against.
enum IPCError: String, Error, Sendable {
    case invalidParameter = "invalid parameter"
    case propertyNotFound = "property not found"
    case propertyUnavailable = "property unavailable"
    case propertyFormat = "unsupported format for accessing property"
    case propertyError = "error accessing property"
    case command = "error running command"
    case loadingFailed = "loading failed"
}

/// A failed request: mpv's error string, and for people (ctl prints it) what went wrong.
struct IPCFailure: Error, Sendable {
    var error: IPCError
    var message: String?

    init(_ error: IPCError, _ message: String? = nil) {
        self.error = error
        self.message = message
    }
}

/// A line that is not a request: the id it carried (0 when none could be read) and why.
struct BadRequest: Error, Sendable {
    var id: Int64
    var failure: IPCFailure
}

/// What a request's command produced: data for the reply (nil: none).
typealias IPCResult = Result<JSONValue?, IPCFailure>

/// One request line: `{"command": ["seek", 30, "relative"], "request_id": 7, "async": true}`.
struct IPCRequest: Sendable {
    var id: Int64
    var isAsync: Bool
    var command: [JSONValue]
    /// A text command line (`cycle pause`), as mpv takes them too: no reply unless it fails.
    var isText = false

    /// The command's name (its first element).
    var name: String? {
        if case .string(let name)? = command.first { return name }
        return nil
    }

    var arguments: ArraySlice<JSONValue> { command.dropFirst() }

    /// Parses a line; a line that is not a request object is a failure with the request id it
    /// carried, if any could be read.
    static func parse(_ line: some Collection<UInt8>) -> Result<IPCRequest, BadRequest> {
        // mpv's rule: what does not start like JSON is a text command line.
        if let first = line.first(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }),
           first != UInt8(ascii: "{"), first != UInt8(ascii: "[") {
            return textLine(line)
        }
        guard let value = JSONValue(parsing: line) else {
            return .failure(BadRequest(id: 0, failure: IPCFailure(.invalidParameter, "the line is not JSON")))
        }
        guard case .object(let members) = value else {
            return .failure(BadRequest(id: 0, failure: IPCFailure(.invalidParameter, "a request is a JSON object with a \"command\" array")))
        }
        func member(_ key: String) -> JSONValue? { members.first { $0.key == key }?.value }
        var id: Int64 = 0
        switch member("request_id") {
        case nil, .null?: break
        case .number(let number)? where number == number.rounded() && abs(number) < 9e15: id = Int64(number)
        default: return .failure(BadRequest(id: 0, failure: IPCFailure(.invalidParameter, "request_id must be an integer")))
        }
        var isAsync = false
        switch member("async") {
        case nil: break
        case .bool(let flag)?: isAsync = flag
        default: return .failure(BadRequest(id: id, failure: IPCFailure(.invalidParameter, "async must be true or false")))
        }
        guard case .array(let command)? = member("command"), case .string? = command.first else {
            return .failure(BadRequest(id: id, failure: IPCFailure(.invalidParameter, "\"command\" must be an array starting with the command's name")))
        }
        return .success(IPCRequest(id: id, isAsync: isAsync, command: command))
    }

    /// A text command line: its words, each a string argument (`seek 10 relative`).
    static func textLine(_ line: some Collection<UInt8>) -> Result<IPCRequest, BadRequest> {
        guard let text = String(validating: Array(line), as: UTF8.self) else {
            return .failure(BadRequest(id: 0, failure: IPCFailure(.invalidParameter, "the line is not UTF-8 text")))
        }
        guard let words = SessionCommands.words(ofLine: text) else {
            return .failure(BadRequest(id: 0, failure: IPCFailure(.invalidParameter, "the line is neither JSON nor a command (a quote is not closed?)")))
        }
        return .success(IPCRequest(id: 0, isAsync: false, command: words.map { .string($0) }, isText: true))
    }

    /// The reply line for a request.
    static func reply(id: Int64, _ result: IPCResult) -> [UInt8] {
        // The replies a status bar asks for many times a second, written directly.
        if case .success(let data) = result, let scalar = scalarText(data ?? .null) {
            return Array("{\"request_id\":\(id),\"error\":\"success\",\"data\":\(scalar)}\n".utf8)
        }
        var members = [JSONValue.Member("request_id", .number(Double(id)))]
        switch result {
        case .success(let data):
            members.append(.init("error", .string("success")))
            members.append(.init("data", data ?? .null))
        case .failure(let failure):
            members.append(.init("error", .string(failure.error.rawValue)))
            if let message = failure.message { members.append(.init("message", .string(message))) }
        }
        return line(.object(members))
    }

    /// A number, flag or null as JSON text (numbers as cJSON prints them: integers without a point).
    static func scalarText(_ value: JSONValue) -> String? {
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let number) where number.isFinite:
            if number == number.rounded() && abs(number) < 1e15 { return String(Int64(number)) }
            return "\(number)"
        default: return nil
        }
    }

    /// An event line: `{"event": NAME, …}`.
    static func event(_ name: String, _ fields: [JSONValue.Member] = []) -> [UInt8] {
        line(.object([JSONValue.Member("event", .string(name))] + fields))
    }

    static func line(_ value: JSONValue) -> [UInt8] {
        var text = value.text(layout: .compact) ?? Array(#"{"error":"memory allocation failed"}"#.utf8)
        text.append(UInt8(ascii: "\n"))
        return text
    }
}
