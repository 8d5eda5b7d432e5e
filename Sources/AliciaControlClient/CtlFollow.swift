#if canImport(Glibc)
import Glibc
#endif
import AliciaControl
import AliciaJSON
import AliciaLocks
import AliciaSession

/// `ctl follow` and `ctl idle`: their own options, read from the words after the command.
struct FollowOptions: Equatable {
    var properties: [String] = []
    /// `--format TEXT`: a line made of `{title}`, `{position}`, `{state}`… (see `FollowLine`).
    var format: String?
    /// `--waybar`: waybar's custom-module JSON (`text` from the format, `tooltip`, `class`).
    var waybar = false
    /// `--rate SECONDS`: a line that only moves the position waits this long after the last one.
    var rate = 1.0
    /// `--once`: end with the player (and exit 3 when none is running) instead of waiting for the next.
    var once = false
    var json = false

    /// What `follow` watches when told nothing: what its default line shows.
    static let defaultFormat = "{state} {position} {duration} {title}"
    /// What `idle` waits on when told nothing: every change but the position's.
    static let idleProperties = ["alicia-state", "media-title", "playlist-pos", "playlist-count", "volume", "mute", "speed",
                                 "alicia-voice", "alicia-sleep"]

    static func parse(_ words: [String]) -> Result<FollowOptions, UsageError> {
        var options = FollowOptions()
        var index = 0
        func value(_ name: String) throws(UsageError) -> String {
            guard index < words.count else { throw UsageError("\(name) needs a value") }
            defer { index += 1 }
            return words[index]
        }
        do throws(UsageError) {
            while index < words.count {
                let word = words[index]
                index += 1
                switch word {
                case "--json": options.json = true
                case "--once": options.once = true
                case "--waybar": options.waybar = true
                case "--format": options.format = try value(word)
                case "--rate":
                    let text = try value(word)
                    guard let seconds = Double(text.hasSuffix("s") ? String(text.dropLast()) : text), seconds >= 1, seconds <= 3600 else {
                        throw UsageError("--rate '\(text)' is not a number of seconds from 1 to 3600 (the player sends the position at most once a second)")
                    }
                    options.rate = seconds
                case let other where other.hasPrefix("--"):
                    throw UsageError("unknown option '\(other)' (follow takes --json, --format TEXT, --waybar, --rate SECONDS, --once)")
                default: options.properties.append(word)
                }
            }
        } catch {
            return .failure(error)
        }
        if options.json && (options.format != nil || options.waybar) {
            return .failure(UsageError("--json prints the properties as they are: it does not go with --format or --waybar"))
        }
        return .success(options)
    }

    /// The properties to observe: those named, and those the line shows.
    var observed: [String] {
        var names = properties
        if let template = format ?? (waybar || properties.isEmpty ? Self.defaultFormat : nil) {
            for field in FollowLine.fields(template) + (waybar ? FollowLine.fields(FollowLine.tooltip) + ["state"] : [])
            where !names.contains(FollowLine.property(field)) {
                names.append(FollowLine.property(field))
            }
        }
        return names
    }
}

/// One line of the feed from the values of the observed properties.
enum FollowLine {
    /// What `--waybar` puts in the tooltip.
    static let tooltip = "{title}\n{position} / {duration}, {state}"

    /// The property a `{field}` shows: the short names, else the property of that name.
    static func property(_ field: String) -> String {
        switch field {
        case "title": return "media-title"
        case "position": return "time-pos"
        case "remaining": return "time-remaining"
        case "percent": return "percent-pos"
        case "state": return "alicia-state"
        case "label": return "alicia-label"
        case "voice": return "alicia-voice"
        case "sleep": return "alicia-sleep"
        default: return field
        }
    }

    /// The `{field}`s of a template, in order.
    static func fields(_ template: String) -> [String] {
        var fields: [String] = []
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            fields.append(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return fields
    }

    /// The template with each `{field}` replaced by its value: times as m:ss, the percentage
    /// whole, the state in words (paused, playing, buffering… ; stopped with no item).
    static func render(_ template: String, _ values: [String: JSONValue]) -> String {
        var line = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            line += rest[..<open]
            line += text(String(rest[rest.index(after: open)..<close]), values)
            rest = rest[rest.index(after: close)...]
        }
        return line + rest
    }

    static func text(_ field: String, _ values: [String: JSONValue]) -> String {
        let value = values[property(field)] ?? .null
        switch field {
        case "position", "duration", "remaining":
            return value.numberValue.map(TimeSpec.clock) ?? "-"
        case "percent":
            return value.numberValue.map { String(Int($0.rounded())) } ?? "-"
        case "state":
            guard let state = value.stringValue else { return "stopped" }
            return state == "idle" || state == "ended" ? "stopped" : state
        default:
            return CtlCommand.text(value) ?? ""
        }
    }

    /// The whole line for the options: JSON, waybar's JSON, a template, or the values tab-separated.
    static func line(_ options: FollowOptions, _ values: [String: JSONValue]) -> String {
        if options.json {
            let members = options.observed.map { JSONValue.Member($0, values[$0] ?? .null) }
            return String(decoding: IPCLines.text(.object(members)), as: UTF8.self)
        }
        if options.waybar {
            let object = JSONValue.object([.init("text", .string(render(options.format ?? FollowOptions.defaultFormat, values))),
                                           .init("tooltip", .string(render(tooltip, values))),
                                           .init("class", .string(text("state", values)))])
            return String(decoding: IPCLines.text(object), as: UTF8.self)
        }
        if let format = options.format ?? (options.properties.isEmpty ? FollowOptions.defaultFormat : nil) {
            return render(format, values)
        }
        return options.properties.map { CtlCommand.text(values[$0] ?? .null) ?? "" }.joined(separator: "\t")
    }

    /// The last line, when the player has gone.
    static func final(_ options: FollowOptions) -> String {
        if options.json { return #"{"event":"shutdown"}"# }
        if options.waybar { return #"{"text":"","tooltip":"","class":"stopped"}"# }
        return options.format != nil ? "" : "shutdown"
    }
}

/// The feed: attach (waiting for a player unless `--once`), a line at once and one a change,
/// the final line when the player goes, then wait for the next.
struct FollowFeed {
    let options: FollowOptions
    let path: String
    /// How often a missing player is looked for.
    static let retryInterval: Int32 = 200

    func run() -> Int32 {
        var attached = false
        while !Console.stdoutClosed {
            guard let fd = connect() else {
                if options.once {
                    if attached { return ExitCode.success }
                    Console.fail("no player is listening on \(path) (follow without --once waits for one)")
                    return CtlCommand.notListening
                }
                poll(nil, 0, Self.retryInterval)
                continue
            }
            attached = true
            let connection = LineConnection(fd)
            let status = follow(connection)
            close(fd)
            if let status { return status }
            Console.out(FollowLine.final(options) + "\n")
            if options.once { return ExitCode.success }
        }
        return ExitCode.success
    }

    private func connect() -> Int32? {
        if case .success(let fd) = ControlSocket.connect(to: path) { return fd }
        return nil
    }

    /// Observes the properties; nil when the player has gone (or never answered), else an exit status.
    private func follow(_ connection: LineConnection) -> Int32? {
        let names = options.observed
        switch CtlCommand.observing(names, on: connection) {
        case .failure(let problem):
            Console.fail("follow \(problem.message)")
            return ExitCode.failure
        case .success(let observed) where !observed: return nil
        case .success: break
        }
        var values: [String: JSONValue] = [:]
        var seen = Set<String>()
        var lastLine: String?
        var lastPrinted = -Double.infinity
        var pending = false
        while !Console.stdoutClosed {
            let wait = pending ? max(0, lastPrinted + options.rate - MonotonicClock.seconds()) : nil
            var onlyContinuous = true
            switch connection.next(within: wait) {
            case .closed: return nil
            case .timedOut: onlyContinuous = false
            case .object(let object):
                var object = Optional(object)
                // Everything that came at once makes one line.
                while let current = object {
                    if current["event"]?.stringValue == "shutdown" { return nil }
                    if current["event"]?.stringValue == "property-change", let name = current["name"]?.stringValue {
                        if values[name] != current["data"] ?? .null || !seen.contains(name) {
                            onlyContinuous = onlyContinuous && SessionProperties.property(named: name)?.isContinuous == true
                        }
                        values[name] = current["data"] ?? .null
                        seen.insert(name)
                    }
                    if case .object(let next) = connection.next(within: 0) { object = next } else { object = nil }
                }
            }
            guard seen.count >= Set(names).count else { continue }
            let now = MonotonicClock.seconds()
            if onlyContinuous && now - lastPrinted < options.rate {
                pending = true
                continue
            }
            pending = false
            let line = FollowLine.line(options, values)
            guard line != lastLine else { continue }
            Console.out(line + "\n")
            lastLine = line
            lastPrinted = now
        }
        return ExitCode.success
    }
}

/// `ctl idle [PROPERTY…]`: blocks until one of the properties changes (any but the position when
/// none are named), prints `NAME VALUE` (the event as JSON with --json) and exits 0; `shutdown`
/// when the player goes first.
struct IdleWait {
    let options: FollowOptions

    func run(_ connection: LineConnection) -> Int32 {
        let names = options.properties.isEmpty ? FollowOptions.idleProperties : options.properties
        switch CtlCommand.observing(names, on: connection) {
        case .failure(let problem):
            Console.fail("idle \(problem.message)")
            return ExitCode.failure
        case .success(let observed) where !observed: return shutdown()
        case .success: break
        }
        var first: [String: JSONValue] = [:]
        while true {
            guard case .object(let object) = connection.next(within: nil) else { return shutdown() }
            switch object["event"]?.stringValue {
            case "shutdown": return shutdown()
            case "property-change":
                guard let name = object["name"]?.stringValue else { continue }
                let value = object["data"] ?? .null
                guard let before = first[name] else {
                    first[name] = value
                    continue
                }
                guard before != value, first.count >= Set(names).count else { continue }
                let text = String(decoding: IPCLines.text(object), as: UTF8.self)
                Console.out((options.json ? text : "\(name) \(CtlCommand.text(value) ?? "")") + "\n")
                return ExitCode.success
            default: continue
            }
        }
    }

    private func shutdown() -> Int32 {
        Console.out((options.json ? #"{"event":"shutdown"}"# : "shutdown") + "\n")
        return ExitCode.success
    }
}
