#if canImport(Glibc)
import Glibc
#endif
import AliciaControl
import AliciaJSON

/// `alicia-player ctl [--ipc PATH] [--json] COMMAND ARGS…`: one command to a running player over
/// its control socket, the reply's data printed (`ctl get time-pos` → `83.42`). Exit 0 on success,
/// 1 on an error reply (its message on stderr), 3 when no player listens.
final class CtlCommand {
    let options: CtlOptions

    init(options: CtlOptions) {
        self.options = options
    }

    static let notListening: Int32 = 3

    /// What a shorthand needs, checked before connecting: nil, or what is wrong.
    static func check(_ words: [String]) -> String? {
        let arguments = words.dropFirst()
        switch words.first {
        case "get": return arguments.count == 1 ? nil : "takes one property (ctl get time-pos)"
        case "set": return arguments.count == 2 ? nil : "takes a property and a value (ctl set volume 50)"
        case "seek":
            guard (1...2).contains(arguments.count), Double(arguments.first!) != nil else { return "takes seconds and optionally relative, absolute or absolute-percent (ctl seek -10)" }
            return nil
        case "volume", "speed": return arguments.count == 1 && Double(arguments.first!) != nil ? nil : "takes a number"
        case "wait": return arguments.count == 1 ? nil : "takes one event name (ctl wait end-file)"
        case "pause", "resume", "toggle", "next", "prev", "previous", "status", "stop", "quit":
            return words.first == "quit" && arguments.count <= 1 || arguments.isEmpty ? nil : "takes no arguments"
        default: return nil
        }
    }

    /// The request a command line makes.
    static func command(_ words: [String]) -> [JSONValue] {
        let arguments = Array(words.dropFirst())
        switch words.first! {
        case "get": return [.string("get_property"), .string(arguments[0])]
        case "set": return [.string("set_property"), .string(arguments[0]), value(arguments[1])]
        case "pause": return [.string("set_property"), .string("pause"), .bool(true)]
        case "resume": return [.string("set_property"), .string("pause"), .bool(false)]
        case "play" where arguments.isEmpty: return [.string("set_property"), .string("pause"), .bool(false)]
        case "toggle": return [.string("cycle"), .string("pause")]
        case "next": return [.string("playlist-next")]
        case "prev", "previous": return [.string("playlist-prev")]
        case "volume", "speed": return [.string("set_property"), .string(words[0]), value(arguments[0])]
        case let name: return [.string(name)] + arguments.map(value)
        }
    }

    /// An argument as JSON: a number or a flag when it reads as one, else the text.
    static func value(_ word: String) -> JSONValue {
        if word == "true" { return .bool(true) }
        if word == "false" { return .bool(false) }
        if let number = Double(word), number.isFinite, !word.hasPrefix("+") { return .number(number) }
        return .string(word)
    }

    func run() -> Int32 {
        let path = options.ipcPath ?? ControlSocket.defaultPath()
        let fd: Int32
        switch ControlSocket.connect(to: path) {
        case .success(let connected): fd = connected
        case .failure(let error):
            if error.code == ENOENT || error.code == ECONNREFUSED {
                Console.fail("no player is listening on \(path) (start one: alicia-player play …, or pass --ipc PATH)")
            } else {
                Console.fail("cannot reach \(path): \(error.message)")
            }
            return Self.notListening
        }
        defer { close(fd) }
        let connection = LineConnection(fd)
        switch options.words[0] {
        case "watch": return watch(connection, properties: Array(options.words.dropFirst()))
        case "wait": return wait(connection, for: options.words[1])
        default: break
        }
        guard let reply = connection.request(Self.command(options.words), id: 1) else {
            Console.fail("the player closed the connection without replying")
            return CommandLineTool.Status.failure
        }
        if options.json {
            Console.out(String(decoding: IPCLines.text(reply), as: UTF8.self) + "\n")
        }
        guard case .string("success")? = reply["error"] else {
            let error = reply["error"].flatMap { if case .string(let text) = $0 { return text } else { return nil } } ?? "error"
            let message = reply["message"].flatMap { if case .string(let text) = $0 { return text } else { return nil } }
            Console.fail("\(options.words[0]): \(message.map { "\($0) (\(error))" } ?? error)")
            return CommandLineTool.Status.failure
        }
        if !options.json, let data = reply["data"] {
            let text = options.words[0] == "status" ? Self.statusLine(data) : Self.text(data)
            if let text { Console.out(text + "\n") }
        }
        return CommandLineTool.Status.success
    }

    /// `ctl watch [PROPERTY…]`: each change of the properties (all events when none), a line each,
    /// until the player goes.
    private func watch(_ connection: LineConnection, properties: [String]) -> Int32 {
        for (index, property) in properties.enumerated() {
            guard let reply = connection.request([.string("observe_property"), .number(Double(index + 1)), .string(property)], id: Int64(index + 1)) else {
                return CommandLineTool.Status.success
            }
            guard case .string("success")? = reply["error"] else {
                Console.fail("watch \(property): \(Self.text(reply["error"] ?? .null) ?? "error")")
                return CommandLineTool.Status.failure
            }
        }
        while let line = connection.nextObject() {
            if options.json {
                Console.out(String(decoding: IPCLines.text(line), as: UTF8.self) + "\n")
                continue
            }
            guard case .string(let event)? = line["event"] else { continue }
            if event == "property-change" {
                guard case .string(let name)? = line["name"] else { continue }
                Console.out("\(name) \(line["data"].flatMap(Self.text) ?? "")\n")
            } else if properties.isEmpty || event == "shutdown" {
                Console.out(Self.eventLine(event, line) + "\n")
            }
            if event == "shutdown" { break }
        }
        return CommandLineTool.Status.success
    }

    /// `ctl wait EVENT`: blocks until the player sends it (printed), 1 when the player goes first.
    private func wait(_ connection: LineConnection, for name: String) -> Int32 {
        while let line = connection.nextObject() {
            guard case .string(let event)? = line["event"] else { continue }
            if event == name {
                Console.out((options.json ? String(decoding: IPCLines.text(line), as: UTF8.self) : Self.eventLine(event, line)) + "\n")
                return CommandLineTool.Status.success
            }
        }
        Console.fail("the player went away before \(name)")
        return CommandLineTool.Status.failure
    }

    /// `end-file reason=eof playlist_entry_id=3`.
    static func eventLine(_ event: String, _ object: JSONValue) -> String {
        guard case .object(let members) = object else { return event }
        let fields = members.filter { $0.key != "event" }.map { "\($0.key)=\(text($0.value) ?? "")" }
        return ([event] + fields).joined(separator: " ")
    }

    /// `playing 83.42 3600.00 Title` (as a script's `status`).
    static func statusLine(_ data: JSONValue) -> String? {
        guard case .object = data else { return text(data) }
        let state = data["state"].flatMap(text) ?? "-"
        let position = data["position"].flatMap { $0 == .null ? nil : $0.numberValue }.map(ScriptCommand.seconds) ?? "-"
        let duration = data["duration"].flatMap { $0 == .null ? nil : $0.numberValue }.map(ScriptCommand.seconds) ?? "-"
        let title = data["title"].flatMap(text) ?? "-"
        return "\(state) \(position) \(duration) \(title)"
    }

    /// Data for a shell: strings as they are, numbers with at most two decimals, flags as yes/no,
    /// anything else as JSON; nil for null.
    static func text(_ value: JSONValue) -> String? {
        switch value {
        case .null: return nil
        case .string(let text): return text
        case .bool(let flag): return flag ? "yes" : "no"
        case .number(let number):
            if number == number.rounded() && abs(number) < 1e15 { return String(Int64(number)) }
            var text = ScriptCommand.seconds(abs(number))
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
            return (number < 0 ? "-" : "") + text
        default: return String(decoding: IPCLines.text(value), as: UTF8.self)
        }
    }
}

/// A blocking line-at-a-time connection to the control socket.
final class LineConnection {
    private let fd: Int32
    private var buffer: [UInt8] = []
    /// Events that came while a reply was awaited, for `nextObject`.
    private var held: [JSONValue] = []

    init(_ fd: Int32) {
        self.fd = fd
    }

    /// Sends a request and waits for its reply (events before it are skipped).
    func request(_ command: [JSONValue], id: Int64) -> JSONValue? {
        let line = IPCLines.text(.object([.init("command", .array(command)), .init("request_id", .number(Double(id)))])) + [10]
        let sent = line.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == line.count else { return nil }
        while let object = readObject() {
            if object["event"] != nil {
                held.append(object)
            } else if case .number(let number)? = object["request_id"], Int64(number) == id {
                return object
            }
        }
        return nil
    }

    /// The next JSON object the player sends (events held back by `request` first); nil when the
    /// connection ends.
    func nextObject() -> JSONValue? {
        if !held.isEmpty { return held.removeFirst() }
        return readObject()
    }

    private func readObject() -> JSONValue? {
        while true {
            if let newline = buffer.firstIndex(of: 10) {
                let line = buffer[..<newline]
                defer { buffer.removeSubrange(...newline) }
                if let value = JSONValue(parsing: line) { return value }
                continue
            }
            var chunk = [UInt8](repeating: 0, count: 16 * 1024)
            let n = read(fd, &chunk, chunk.count)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return nil }
            buffer += chunk[..<n]
        }
    }
}

enum IPCLines {
    static func text(_ value: JSONValue) -> [UInt8] { value.text(layout: .compact) ?? [] }
}

extension JSONValue {
    /// An object's member.
    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    var numberValue: Double? {
        if case .number(let number) = self { return number }
        return nil
    }
}
