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

    /// What a shorthand needs, checked before connecting: nil, or what is wrong.
    package static func check(_ words: [String]) -> String? {
        let arguments = Array(words.dropFirst())
        switch words.first {
        case "get": return arguments.count == 1 ? nil : "takes one property (ctl get time-pos)"
        case "set": return arguments.count == 2 ? nil : "takes a property and a value (ctl set volume 50)"
        case "seek":
            guard (1...2).contains(arguments.count) else { return "takes a time: 1:20, 90, +30, -15, 50% (ctl seek -10)" }
            if arguments.count == 2 { return Double(arguments[0]) != nil ? nil : "takes seconds before a mode (ctl seek 30 relative)" }
            return TimeSpec.seekTarget(arguments[0]) != nil ? nil : "'\(arguments[0])' is not a time: 1:20, 90, +30, -15, 50%"
        case "volume": return arguments.count == 1 && LevelText.volume(arguments[0]) != nil ? nil : "takes a level, 0 to 150, or +5, -5"
        case "speed": return arguments.count == 1 && LevelText.speed(arguments[0]) != nil ? nil : "takes a speed, 0.5 to 3, or +0.25, -0.25"
        case "mute": return arguments.count <= 1 && (arguments.first.map { LevelText.mute($0) != nil } ?? true) ? nil : "takes on, off or toggle"
        case "cycle": return arguments.count == 1 ? nil : "takes a property (ctl cycle pause)"
        case "wait": return arguments.count == 1 ? nil : "takes one event name (ctl wait end-file)"
        case "chapter":
            guard arguments.count == 1, ["next", "prev", "previous", "list"].contains(arguments[0]) || Int(arguments[0]) != nil else {
                return "takes next, prev, list or a chapter's index (ctl chapter next)"
            }
            return nil
        case "follow", "idle":
            if case .failure(let problem) = FollowOptions.parse(arguments) { return problem.message }
            return nil
        case "loadfile": return (1...2).contains(arguments.count) ? nil : "takes a reference and optionally a mode (append, insert-next, ...)"
        case "speak": return arguments.isEmpty ? "takes the text to read aloud (ctl speak \"some words\")" : nil
        case "pause", "resume", "toggle", "next", "prev", "previous", "status", "stop", "quit", "transcript", "list":
            return words.first == "quit" && arguments.count <= 1 || arguments.isEmpty ? nil : "takes no arguments"
        default: return nil
        }
    }

    /// The socket command a command line makes: a shorthand spelled in the command table's names,
    /// times and levels in the forms scripts take, or the words as they are.
    static func command(_ words: [String], directory: String? = nil) -> [JSONValue] {
        let arguments = Array(words.dropFirst())
        switch words.first! {
        case "get": return [.string("get_property"), .string(arguments[0])]
        case "transcript": return [.string("get_property"), .string("transcript")]
        case "set": return set(arguments[0], arguments[1])
        case "pause": return [.string("set_property"), .string("pause"), .bool(true)]
        case "resume": return [.string("set_property"), .string("pause"), .bool(false)]
        case "play" where arguments.isEmpty: return [.string("set_property"), .string("pause"), .bool(false)]
        case "toggle": return [.string("cycle"), .string("pause")]
        case "next": return [.string("playlist-next")]
        case "prev", "previous": return [.string("playlist-prev")]
        case "chapter": return chapter(arguments[0])
        case "seek" where arguments.count == 2: return [.string("seek"), value(arguments[0]), .string(arguments[1])]
        case "seek": return seek(TimeSpec.seekTarget(arguments[0]) ?? .by(0))
        case "volume", "speed": return level(words[0], arguments[0])
        case "mute":
            switch arguments.first.flatMap(LevelText.mute) ?? .toggle {
            case .toggle: return [.string("cycle"), .string("mute")]
            case let change: return [.string("set_property"), .string("mute"), .bool(change == .on)]
            }
        case "speak": return [.string("speak"), .string(arguments.joined(separator: " "))]
        case "loadfile": return [.string("loadfile"), .string(absolute(arguments[0], in: directory))] + arguments.dropFirst().map { .string($0) }
        case let name: return [.string(name)] + arguments.map(value)
        }
    }

    /// `set time-pos 1:20` takes the time forms `seek` does; everything else, the value as it reads.
    private static func set(_ property: String, _ text: String) -> [JSONValue] {
        if ["time-pos", "playback-time"].contains(property), Double(text) == nil, let target = TimeSpec.seekTarget(text) {
            return seek(target)
        }
        return [.string("set_property"), .string(property), value(text)]
    }

    private static func seek(_ target: TransportCommand.SeekTarget) -> [JSONValue] {
        switch target {
        case .by(let seconds): return [.string("seek"), .number(seconds), .string("relative")]
        case .to(let seconds): return [.string("seek"), .number(seconds), .string("absolute")]
        case .toFraction(let fraction): return [.string("seek"), .number(fraction * 100), .string("absolute-percent")]
        case .byFraction(let fraction): return [.string("seek"), .number(fraction * 100), .string("relative-percent")]
        }
    }

    /// `chapter next|prev` steps (as `add chapter ±1`), `chapter list` reads `chapter-list`,
    /// `chapter N` goes to chapter N (0-based, as the property).
    private static func chapter(_ word: String) -> [JSONValue] {
        switch word {
        case "next": return [.string("add"), .string("chapter"), .number(1)]
        case "prev", "previous": return [.string("add"), .string("chapter"), .number(-1)]
        case "list": return [.string("get_property"), .string("chapter-list")]
        default: return [.string("set_property"), .string("chapter"), .number(Double(Int(word) ?? 0))]
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

    /// `volume 50` sets it, `volume +5` and `volume -5` move it from where it is (as `add` does).
    private static func level(_ property: String, _ text: String) -> [JSONValue] {
        let change = property == "volume" ? LevelText.volume(text) : LevelText.speed(text)
        switch change {
        case .by(let delta)?: return [.string("add"), .string(property), .number(delta)]
        case .set(let value)?: return [.string("set_property"), .string(property), .number(value)]
        case nil: return [.string("set_property"), .string(property), value(text)]
        }
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
        guard let reply = connection.request(Self.command(options.words, directory: Self.workingDirectory), id: 1) else {
            Console.fail("the player closed the connection without replying")
            return ExitCode.failure
        }
        if options.json {
            Console.out(String(decoding: IPCLines.text(reply), as: UTF8.self) + "\n")
        }
        guard case .string("success")? = reply["error"] else {
            let error = reply["error"].flatMap { if case .string(let text) = $0 { return text } else { return nil } } ?? "error"
            let message = reply["message"].flatMap { if case .string(let text) = $0 { return text } else { return nil } }
            Console.fail("\(options.words[0]): \(message.map { "\($0) (\(error))" } ?? error)")
            return ExitCode.failure
        }
        if !options.json, options.words[0] == "transcript" {
            guard let text = reply["data"].flatMap(Self.transcriptText) else {
                Console.fail("transcript: what plays has none (a NAME.vtt, NAME.srt or NAME.json beside a local file)")
                return ExitCode.failure
            }
            Console.out(text)
        } else if !options.json, let data = reply["data"] {
            let text = options.words[0] == "status" ? Self.statusLine(data)
                : options.words == ["chapter", "list"] ? Self.chapterLines(data) : Self.text(data)
            if let text { Console.out(text + "\n") }
        }
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

    /// `playing 83.42 3600.00 Title` (as a script's `status`).
    static func statusLine(_ data: JSONValue) -> String? {
        guard case .object = data else { return text(data) }
        let state = data["state"].flatMap(text) ?? "-"
        let position = data["position"].flatMap { $0 == .null ? nil : $0.numberValue }.map(TimeSpec.seconds) ?? "-"
        let duration = data["duration"].flatMap { $0 == .null ? nil : $0.numberValue }.map(TimeSpec.seconds) ?? "-"
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

    enum Next {
        case object(JSONValue)
        case timedOut
        case closed
    }

    /// The next object within `seconds` (nil: however long it takes; 0: only one already here).
    func next(within seconds: Double?) -> Next {
        if !held.isEmpty { return .object(held.removeFirst()) }
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
