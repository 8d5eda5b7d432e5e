#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaControl
import AliciaJSON
import AliciaSession
import AliciaLocks

/// `alicia-player ctl [--ipc PATH] [--json] COMMAND ARGS…`: one command to a running player over
/// its control socket, the reply's data printed (`ctl get time-pos` → `83.42`). Exit 0 on success,
/// 1 on an error reply (its message on stderr), 3 when no player listens.
package final class CtlCommand {
    let options: CtlOptions

    package init(options: CtlOptions) {
        self.options = options
    }

    static let notListening: Int32 = 3

    /// `ctl`'s own words: what it does itself with the socket (events, lists), not commands of the
    /// grammar.
    static let ownWords: Set<String> = ["follow", "idle", "watch", "wait", "list"]

    /// What a command line needs, checked before connecting: nil, or what is wrong. Anything but
    /// ctl's own words is a line of the grammar (an alias, or a command of the table).
    package static func check(_ words: [String]) -> String? {
        let arguments = Array(words.dropFirst())
        switch words.first {
        case "wait": return arguments.count == 1 ? nil : "takes one event name (ctl wait end-file)"
        case "list": return arguments.isEmpty ? nil : "takes no arguments"
        case "watch": return nil
        case "follow", "idle":
            if case .failure(let problem) = FollowOptions.parse(arguments) { return problem.message }
            return nil
        default:
            if case .failure(let problem) = CommandAliases.requests(words) { return problem.message }
            return nil
        }
    }

    /// The socket command lines a command line makes (an alias expanded), each as the JSON array a
    /// text line makes: its words as strings. A relative path to load is made absolute here, where
    /// it was typed.
    static func commands(_ words: [String], directory: String? = nil) -> [[JSONValue]] {
        let lines = (try? CommandAliases.expand(words).get()) ?? [words]
        return lines.map { line in
            line.enumerated().map { index, word in
                .string(line[0] == "loadfile" && index == 1 ? absolute(word, in: directory) : word)
            }
        }
    }

    /// `chapter list`: a line a chapter, `INDEX  H:MM:SS  TITLE`.
    static func chapterLines(_ data: JSONValue) -> String? {
        guard case .array(let chapters) = data else { return text(data) }
        guard !chapters.isEmpty else { return nil }
        return chapters.enumerated().map { index, chapter in
            let time = TimeSpec.clock(chapter["time"]?.numberValue ?? 0)
            return "\(index)  \(time)  \(chapter["title"].flatMap(text) ?? "")"
        }.joined(separator: "\n")
    }

    /// A relative path made absolute here, where it was typed (the player runs elsewhere); URLs,
    /// episodes and absolute paths as they are.
    static func absolute(_ reference: String, in directory: String?) -> String {
        guard !reference.hasPrefix("/"), !reference.hasURLScheme, let directory else { return reference }
        let looksLikePath = reference.hasPrefix("./") || reference.hasPrefix("../") || reference.contains("/")
            || access(reference, F_OK) == 0
        return looksLikePath ? directory + "/" + reference : reference
    }

    /// An argument as JSON: a number or a flag when it reads as one, else the text.
    static func value(_ word: String) -> JSONValue {
        if word == "true" { return .bool(true) }
        if word == "false" { return .bool(false) }
        if let number = Double(word), number.isFinite, !word.hasPrefix("+") { return .number(number) }
        return .string(word)
    }

    /// The directory `ctl` runs in, for relative paths.
    static var workingDirectory: String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getcwd(&buffer, buffer.count) != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The follow options of `follow` and `idle`, with ctl's own `--json`.
    private var followOptions: FollowOptions {
        var follow = (try? FollowOptions.parse(Array(options.words.dropFirst())).get()) ?? FollowOptions()
        follow.json = follow.json || options.json
        return follow
    }

    package func run() -> Int32 {
        if options.words[0] == "list" { return CtlPlayers.list(json: options.json) }
        let path: String
        if let player = options.player {
            guard let found = CtlPlayers.path(of: player) else { return Self.notListening }
            path = found
        } else {
            path = options.ipcPath ?? ControlSocket.defaultPath()
        }
        if options.words[0] == "follow" { return FollowFeed(options: followOptions, path: path).run() }
        let fd: Int32
        switch ControlSocket.connect(to: path) {
        case .success(let connected): fd = connected
        case .failure(let error):
            if error.code == ENOENT || error.code == ECONNREFUSED {
                Console.fail("no player is listening on \(path) (start one: alicia-player play …, or pass --ipc PATH or --player NAME; ctl list shows the players)")
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
        case "idle": return IdleWait(options: followOptions).run(connection)
        default: break
        }
        var reply: JSONValue = .null
        let lines = Self.commands(options.words, directory: Self.workingDirectory)
        for (index, line) in lines.enumerated() {
            let answer: JSONValue
            switch connection.request(line, id: Int64(index + 1), within: options.timeout > 0 ? options.timeout : nil) {
            case .answer(let object): answer = object
            case .closed:
                Console.fail("the player closed the connection without replying")
                return ExitCode.failure
            case .timedOut:
                Console.fail("the player on \(path) did not answer within \(TimeSpec.seconds(options.timeout)) s (stopped, or stuck?): "
                    + "gave up (--timeout S waits longer, 0 as long as it takes)")
                return Self.notListening
            }
            if options.json {
                Console.out(String(decoding: IPCLines.text(answer), as: UTF8.self) + "\n")
            }
            guard case .string("success")? = answer["error"] else {
                let error = answer["error"].flatMap { if case .string(let text) = $0 { return text } else { return nil } } ?? "error"
                let message = answer["message"].flatMap { if case .string(let text) = $0 { return text } else { return nil } }
                Console.fail("\(options.words[0]): \(message.map { "\($0) (\(error))" } ?? error)")
                return ExitCode.failure
            }
            reply = answer
        }
        if !options.json { return print(reply["data"], of: lines.last ?? []) }
        return ExitCode.success
    }

    /// A reply's data as text for a shell, in the form its command calls for: `status` as one line,
    /// the chapter list and the transcript a line each.
    private func print(_ data: JSONValue?, of line: [JSONValue]) -> Int32 {
        let command = line.compactMap(\.stringValue)
        if command == ["get_property", "transcript"] {
            guard let text = data.flatMap(Self.transcriptText) else {
                Console.fail("transcript: what plays has none (a NAME.vtt, NAME.srt or NAME.json beside a local file)")
                return ExitCode.failure
            }
            Console.out(text)
            return ExitCode.success
        }
        guard let data else { return ExitCode.success }
        let text = command == ["status"] ? (data == .null ? nil : SessionStatus.line(data))
            : command == ["get_property", "chapter-list"] ? Self.chapterLines(data) : Self.text(data)
        if let text { Console.out(text + "\n") }
        return ExitCode.success
    }

    /// `ctl watch [PROPERTY…]`: each change of the properties (all events when none), a line each,
    /// until the player goes.
    private func watch(_ connection: LineConnection, properties: [String]) -> Int32 {
        switch Self.observing(properties, on: connection) {
        case .failure(let problem):
            Console.fail("watch \(problem)")
            return ExitCode.failure
        case .success(false): return ExitCode.success
        case .success(true): break
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
        return ExitCode.success
    }

    /// Asks the player to send each property's changes (observer ids 1, 2, …): true when it
    /// will, false when it went away first, the property and the error when it refused one.
    static func observing(_ properties: [String], on connection: LineConnection) -> Result<Bool, UsageError> {
        for (index, property) in properties.enumerated() {
            guard let reply = connection.request([.string("observe_property"), .number(Double(index + 1)), .string(property)], id: Int64(index + 1)) else {
                return .success(false)
            }
            guard case .string("success")? = reply["error"] else {
                return .failure(UsageError("\(property): \(Self.text(reply["error"] ?? .null) ?? "error")"))
            }
        }
        return .success(true)
    }

    /// `ctl wait EVENT`: blocks until the player sends it (printed), 1 when the player goes first.
    private func wait(_ connection: LineConnection, for name: String) -> Int32 {
        while let line = connection.nextObject() {
            guard case .string(let event)? = line["event"] else { continue }
            if event == name {
                Console.out((options.json ? String(decoding: IPCLines.text(line), as: UTF8.self) : Self.eventLine(event, line)) + "\n")
                return ExitCode.success
            }
        }
        Console.fail("the player went away before \(name)")
        return ExitCode.failure
    }

    /// `end-file reason=eof playlist_entry_id=3`.
    static func eventLine(_ event: String, _ object: JSONValue) -> String {
        guard case .object(let members) = object else { return event }
        let fields = members.filter { $0.key != "event" }.map { "\($0.key)=\(text($0.value) ?? "")" }
        return ([event] + fields).joined(separator: " ")
    }

    /// The `transcript` property as lines: `0:04  Alicia: Hello there` (the start as `seek` takes
    /// it); nil when there are no cues.
    static func transcriptText(_ data: JSONValue) -> String? {
        guard case .array(let cues) = data, !cues.isEmpty else { return nil }
        return cues.map { cue in
            let start = cue["start"]?.numberValue.map(TimeSpec.clock) ?? "-"
            let speaker = cue["speaker"].flatMap(text).map { $0 + ": " } ?? ""
            return start + "  " + speaker + (cue["text"].flatMap(text) ?? "") + "\n"
        }.joined()
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
            var text = TimeSpec.seconds(abs(number))
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
            return (number < 0 ? "-" : "") + text
        case .object(let members) where members.allSatisfy({ if case .object = $0.value { return false } else if case .array = $0.value { return false } else { return true } }):
            // `playlist_entry_id=3`: plain text, as every other reply.
            return members.map { "\($0.key)=\(text($0.value) ?? "")" }.joined(separator: " ")
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
        if case .answer(let object) = request(command, id: id, within: nil) { return object }
        return nil
    }

    enum Reply {
        case answer(JSONValue)
        case closed
        case timedOut
    }

    /// Sends a request and waits at most `seconds` (nil: however long it takes) for its reply.
    func request(_ command: [JSONValue], id: Int64, within seconds: Double?) -> Reply {
        let line = IPCLines.text(.object([.init("command", .array(command)), .init("request_id", .number(Double(id)))])) + [10]
        // A player stopped (Ctrl-Z) with a full socket buffer would block the send too.
        var fds = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        if let seconds, poll(&fds, 1, Int32((seconds * 1000).rounded(.up))) == 0 { return .timedOut }
        let sent = line.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        guard sent == line.count else { return .closed }
        let deadline = seconds.map { ContinuousClock.now + .milliseconds(Int64($0 * 1000)) }
        while true {
            var left: Double?
            if let deadline {
                let remaining = deadline - ContinuousClock.now
                left = max(0, Double(remaining.components.seconds) + Double(remaining.components.attoseconds) / 1e18)
                if left == 0 { return .timedOut }
            }
            switch readNext(within: left) {
            case .timedOut: return .timedOut
            case .closed: return .closed
            case .object(let object):
                if object["event"] != nil {
                    held.append(object)
                } else if case .number(let number)? = object["request_id"], Int64(number) == id {
                    return .answer(object)
                }
            }
        }
    }

    /// The next JSON object the player sends (events held back by `request` first); nil when the
    /// connection ends.
    func nextObject() -> JSONValue? {
        if !held.isEmpty { return held.removeFirst() }
        return readObject()
    }

    enum Next {
        case object(JSONValue)
        case timedOut
        case closed
    }

    /// The next object within `seconds` (nil: however long it takes; 0: only one already here).
    func next(within seconds: Double?) -> Next {
        if !held.isEmpty { return .object(held.removeFirst()) }
        return readNext(within: seconds)
    }

    /// The next object from the socket within `seconds` (nil: however long it takes).
    private func readNext(within seconds: Double?) -> Next {
        while let newline = buffer.firstIndex(of: 10) {
            let line = buffer[..<newline]
            defer { buffer.removeSubrange(...newline) }
            if let value = JSONValue(parsing: line) { return .object(value) }
        }
        if let seconds {
            var fds = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&fds, 1, Int32((seconds * 1000).rounded(.up)))
            if ready == 0 || (ready < 0 && errno == EINTR) { return .timedOut }
        }
        return readObject().map { .object($0) } ?? .closed
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
