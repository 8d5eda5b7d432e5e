#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaJSON
import AliciaSession

/// The socket's commands: mpv's (`loadfile`, `seek`, `set_property`, …) and ours (`voice`, `say`,
/// `status`). Reads answer at once; changes run on the session's thread.
extension ControlLoop {
    /// The client API version `get_version` reports: mpv 0.35's (2.0), which clients check against.
    static let clientAPIVersion = 131_072

    /// The reply to `request`, or nil when it comes later (through the inbox).
    func execute(_ request: IPCRequest, from connection: Connection) -> IPCResult? {
        guard let name = request.name else { return .failure(IPCFailure(.invalidParameter)) }
        let arguments = Array(request.arguments)
        func argument(_ index: Int) -> JSONValue? { arguments.indices.contains(index) ? arguments[index] : nil }
        func invalid(_ message: String) -> IPCResult { .failure(IPCFailure(.invalidParameter, message)) }

        switch name {
        case "client_name":
            return .success(.string(connection.name ?? "ipc-\(connection.id)"))
        case "get_version":
            return .success(.number(Double(Self.clientAPIVersion)))
        case "get_property", "get_property_string":
            guard arguments.count == 1, let property = argument(0)?.stringValue else { return invalid("get_property takes a property name") }
            let view = PlaybackView(player: player, voiceNotes: voiceNotes)
            return RemoteProperties.get(property, view, version: hooks.version).map { value in
                name == "get_property_string" ? Self.text(value) : value
            }
        case "set_property", "set_property_string", "set":
            guard arguments.count == 2, let property = argument(0)?.stringValue, let value = argument(1) else {
                return invalid("set_property takes a property name and a value")
            }
            return set(property, value, request, connection)
        case "add":
            guard (1...2).contains(arguments.count), let property = argument(0)?.stringValue else { return invalid("add takes a property and a number") }
            let step = argument(1)?.numberValue ?? 1
            let view = PlaybackView(player: player, voiceNotes: voiceNotes)
            guard case .success(.number(let now)) = RemoteProperties.get(property, view, version: hooks.version) else {
                return .failure(IPCFailure(.propertyFormat, "\(property) is not a number"))
            }
            return set(property, .number(now + step), request, connection)
        case "cycle":
            guard (1...2).contains(arguments.count), let property = argument(0)?.stringValue else { return invalid("cycle takes a property") }
            guard property == "pause" else { return .failure(IPCFailure(.propertyFormat, "only pause can be cycled")) }
            return onSession(request, connection) { session in
                session.togglePause()
                return .success(nil)
            }
        case "observe_property", "observe_property_string":
            guard arguments.count == 2, let id = argument(0)?.integerValue, let property = argument(1)?.stringValue else {
                return invalid("observe_property takes an id and a property name")
            }
            guard RemoteProperties.names.contains(property) else { return .failure(IPCFailure(.propertyNotFound, "no property '\(property.prefix(40))'")) }
            // Its value follows the reply at once (`sendFirstValues`), as mpv's does.
            connection.observed.removeAll { $0.id == Int64(id) }
            connection.observed.append((Int64(id), property, nil, 0))
            return .success(nil)
        case "unobserve_property":
            guard arguments.count == 1, let id = argument(0)?.integerValue else { return invalid("unobserve_property takes an id") }
            connection.observed.removeAll { $0.id == Int64(id) }
            return .success(nil)
        case "enable_event", "disable_event":
            guard arguments.count == 1, let event = argument(0)?.stringValue else { return invalid("\(name) takes an event name") }
            if name == "enable_event" {
                if event == "all" { connection.disabled.removeAll() } else { connection.disabled.remove(event) }
            } else {
                connection.disabled.insert(event)
            }
            return .success(nil)
        case "status":
            return .success(Self.status(PlaybackView(player: player, voiceNotes: voiceNotes)))
        case "loadfile":
            guard (1...3).contains(arguments.count), let reference = argument(0)?.stringValue, !reference.isEmpty else {
                return invalid("loadfile takes a reference and optionally replace, append, append-play, insert-next or insert-next-play")
            }
            let mode = argument(1)?.stringValue ?? "replace"
            guard ["replace", "append", "append-play", "insert-next", "insert-next-play"].contains(mode) else {
                return invalid("loadfile: '\(mode)' is not replace, append, append-play, insert-next or insert-next-play")
            }
            let resolve = hooks.resolve
            let remote = self.remote
            return elsewhere(request, connection) { done in
                switch resolve(reference) {
                case .failure(let message):
                    done(.failure(IPCFailure(.loadingFailed, message.message)))
                case .success(let items):
                    remote.post { session in done(Self.load(items, mode: mode, into: session)) }
                }
            }
        case "playlist-next", "playlist-prev":
            return onSession(request, connection) { session in
                let moved = name == "playlist-next" ? session.next() : session.previous()
                return moved ? .success(nil) : .failure(IPCFailure(.command, name == "playlist-next" ? "no next item" : "no item before"))
            }
        case "playlist-play-index":
            guard arguments.count == 1, let index = argument(0)?.integerValue else { return invalid("playlist-play-index takes an index") }
            return onSession(request, connection) { session in Self.jump(to: index, in: session) }
        case "playlist-remove":
            guard arguments.count == 1, let target = argument(0) else { return invalid("playlist-remove takes an index or current") }
            return onSession(request, connection) { session in
                let queue = session.player.queue
                let id: QueueEntryID?
                if target.stringValue == "current" {
                    id = queue.currentID ?? session.player.snapshot().entry
                } else if let index = target.integerValue, queue.entries.indices.contains(index) {
                    id = queue.entries[index].id
                } else {
                    id = nil
                }
                guard let id, session.player.remove(id) else { return .failure(IPCFailure(.invalidParameter, "no such entry in the playlist")) }
                return .success(nil)
            }
        case "playlist-move":
            guard arguments.count == 2, let from = argument(0)?.integerValue, let to = argument(1)?.integerValue else {
                return invalid("playlist-move takes two indexes")
            }
            return onSession(request, connection) { session in
                let queue = session.player.queue
                guard queue.entries.indices.contains(from), (0...queue.count).contains(to) else {
                    return .failure(IPCFailure(.invalidParameter, "no such entry in the playlist"))
                }
                // mpv's meaning: the entry takes the place of the one at `to` (so moving down lands before it).
                session.player.move(queue.entries[from].id, to: from < to ? to - 1 : to)
                return .success(nil)
            }
        case "playlist-clear":
            return onSession(request, connection) { session in
                // mpv keeps the item playing.
                let queue = session.player.queue
                let keep = queue.currentID ?? session.player.snapshot().entry
                for entry in queue.entries where entry.id != keep { session.player.remove(entry.id) }
                return .success(nil)
            }
        case "playlist-shuffle":
            return onSession(request, connection) { session in
                let snapshot = session.player.snapshot()
                let queue = session.player.queue
                var rest = queue.entries.filter { $0.id != snapshot.entry }
                var generator = SystemRandomNumberGenerator()
                rest.shuffle(using: &generator)
                for (offset, entry) in rest.enumerated() { session.player.move(entry.id, to: (snapshot.entry == nil ? 0 : 1) + offset) }
                return .success(nil)
            }
        case "seek":
            guard (1...3).contains(arguments.count), let amount = argument(0)?.numberValue else { return invalid("seek takes a number of seconds") }
            let flags = Set((argument(1)?.stringValue ?? "relative").split(separator: "+").map(String.init))
            let kinds = flags.intersection(["relative", "absolute", "absolute-percent", "relative-percent"])
            guard kinds.count <= 1, flags.subtracting(kinds).isSubset(of: ["exact", "keyframes"]) else {
                return invalid("seek: '\(argument(1)?.stringValue ?? "")' is not relative, absolute, absolute-percent or relative-percent")
            }
            let view = PlaybackView(player: player, voiceNotes: voiceNotes)
            guard view.hasItem else { return .failure(IPCFailure(.command, "nothing is playing")) }
            switch kinds.first ?? "relative" {
            case "absolute": player.seek(to: amount < 0 ? max(0, (view.snapshot.duration ?? 0) + amount) : amount)
            case "absolute-percent": player.seek(toFraction: amount / 100)
            case "relative-percent":
                guard let duration = view.snapshot.duration else { return .failure(IPCFailure(.command, "the length is not known yet")) }
                player.seek(by: duration * amount / 100)
            default: player.seek(by: amount)
            }
            return .success(nil)
        case "stop":
            return onSession(request, connection) { session in
                session.stopPlayback()
                return .success(nil)
            }
        case "quit", "quit-watch-later":
            // No number at all is 0, as before; a number must be an exit status.
            let code = argument(0)?.numberValue == nil ? 0 : argument(0)?.integerValue
            guard let code, (0...255).contains(code) else {
                return invalid("quit takes an exit status from 0 to 255")
            }
            let status = Int32(code)
            return onSession(request, connection) { session in
                if name == "quit-watch-later" { session.savePosition() }
                session.requestQuit(status: status)
                return .success(nil)
            }
        case "voice":
            guard arguments.count == 1, let reference = argument(0)?.stringValue, !reference.isEmpty else { return invalid("voice takes a reference") }
            guard voiceNotes != nil else { return .failure(IPCFailure(.command, "this player has no voice-note player")) }
            let resolve = hooks.resolve
            let voiceNotes = self.voiceNotes
            return elsewhere(request, connection) { done in
                switch resolve(reference.hasPrefix("voice:") ? reference : "voice:" + reference) {
                case .failure(let message): done(.failure(IPCFailure(.loadingFailed, message.message)))
                case .success(let items):
                    for item in items { voiceNotes?.enqueue(item.location, title: item.title) }
                    done(.success(nil))
                }
            }
        case "say":
            guard arguments.count == 1, let text = argument(0)?.stringValue, !text.isEmpty else { return invalid("say takes the text to send") }
            guard let say = hooks.say else { return .failure(IPCFailure(.command, "say needs Alicia's backend, and none is configured")) }
            let voiceNotes = self.voiceNotes
            return elsewhere(request, connection) { done in
                let reply = say(text) { location, title in voiceNotes?.enqueue(location, title: title) }
                switch reply {
                case .success(let text): done(.success(.string(text)))
                case .failure(let problem): done(.failure(IPCFailure(.command, problem.message)))
                }
            }
        default:
            return .failure(IPCFailure(.invalidParameter, "unknown command '\(name.prefix(40))'"))
        }
    }

    // MARK: Properties

    private func set(_ property: String, _ value: JSONValue, _ request: IPCRequest, _ connection: Connection) -> IPCResult? {
        func wrongType(_ expected: String) -> IPCResult { .failure(IPCFailure(.propertyFormat, "\(property) takes \(expected)")) }
        switch property {
        case "pause":
            guard let paused = value.flagValue else { return wrongType("true or false") }
            return onSession(request, connection) { session in
                let state = session.player.snapshot().state
                if !paused && (state == .ended || state == .idle) {
                    session.togglePause()
                } else if paused {
                    session.player.pause()
                } else {
                    session.resume()
                }
                return .success(nil)
            }
        case "time-pos", "playback-time":
            guard let seconds = value.numberValue else { return wrongType("a number of seconds") }
            guard PlaybackView(player: player, voiceNotes: voiceNotes).hasItem else { return .failure(IPCFailure(.propertyUnavailable)) }
            player.seek(to: max(0, seconds))
            return .success(nil)
        case "percent-pos":
            guard let percent = value.numberValue else { return wrongType("a percentage") }
            guard PlaybackView(player: player, voiceNotes: voiceNotes).hasItem else { return .failure(IPCFailure(.propertyUnavailable)) }
            player.seek(toFraction: percent / 100)
            return .success(nil)
        case "speed":
            guard let speed = value.numberValue, speed > 0 else { return wrongType("a speed (0.5 to 3)") }
            player.setSpeed(speed)
            return .success(nil)
        case "volume":
            guard let percent = value.numberValue else { return wrongType("a percentage (0 to 150)") }
            let linear = VolumeScale.linear(percent: percent)
            return onSession(request, connection) { session in
                session.setVolume(linear)
                return .success(nil)
            }
        case "playlist-pos":
            guard let index = value.integerValue else { return wrongType("an index") }
            return onSession(request, connection) { session in Self.jump(to: index, in: session) }
        case "loop-playlist", "loop-file":
            let on: Bool
            if case .string(let text) = value, text == "inf" || text == "force" {
                on = true
            } else if let flag = value.flagValue {
                on = flag
            } else {
                return wrongType("inf, yes or no")
            }
            let queue = player.queue
            let mode: LoopMode = on ? (property == "loop-file" ? .entry : .queue)
                : (queue.loop == (property == "loop-file" ? .entry : .queue) ? .off : queue.loop)
            player.setLoop(mode)
            return .success(nil)
        case "alicia-skip-silence":
            guard let level = value.flagValue.map({ $0 ? SilenceSkipping.medium : .off }) ?? value.stringValue.flatMap(SilenceSkipping.init(rawValue:)) else {
                return wrongType("off, mild, medium or strong")
            }
            player.setSilenceSkipping(level)
            return .success(nil)
        case "alicia-sleep":
            let timer: SleepTimer
            switch value {
            case .null, .bool(false), .string("off"), .number(0): timer = .off
            case .string("end"): timer = .endOfEntries(1)
            default:
                guard let seconds = value.numberValue ?? value.stringValue.flatMap(Self.duration), seconds > 0 else {
                    return wrongType("seconds (or 30m, 1h), end, or off")
                }
                timer = .after(seconds: seconds)
            }
            player.setSleepTimer(timer)
            return .success(nil)
        case "alicia-loudness":
            if value.stringValue == "off" || value.flagValue == false {
                player.setLoudness(.off)
            } else if let target = value.numberValue, (-40 ... -5).contains(target) {
                player.setLoudness(.target(target))
            } else {
                return wrongType("off or a target from -40 to -5 LUFS")
            }
            return .success(nil)
        default:
            if RemoteProperties.names.contains(property) {
                return .failure(IPCFailure(.propertyError, "\(property) cannot be set"))
            }
            return .failure(IPCFailure(.propertyNotFound, "no property '\(property.prefix(40))'"))
        }
    }

    // MARK: On the session's thread

    static func load(_ items: [QueueItem], mode: String, into session: ListeningSession) -> IPCResult {
        guard !items.isEmpty else { return .failure(IPCFailure(.loadingFailed, "nothing to play: the list is empty")) }
        var ids: [QueueEntryID] = []
        switch mode {
        case "append", "append-play":
            for item in items { ids.append(session.append(session.resumed(item), startIfIdle: mode == "append-play")) }
        case "insert-next", "insert-next-play":
            for item in items.reversed() { ids.insert(session.playNext(session.resumed(item), startIfIdle: mode == "insert-next-play"), at: 0) }
        default:
            session.play(items)
            ids = session.player.queue.entries.map(\.id)
        }
        return .success(.object([.init("playlist_entry_id", .number(Double(ids.first?.rawValue ?? 0)))]))
    }

    static func jump(to index: Int, in session: ListeningSession) -> IPCResult {
        let queue = session.player.queue
        guard queue.entries.indices.contains(index) else { return .failure(IPCFailure(.invalidParameter, "no entry \(index) in the playlist")) }
        let item = session.resumed(queue.entries[index].item)
        session.player.resume()
        session.player.jump(to: queue.entries[index].id, from: item.start)
        return .success(nil)
    }

    /// `status`: the state, where, how long, what, in one object.
    static func status(_ view: PlaybackView) -> JSONValue {
        let snapshot = view.snapshot
        return .object([
            .init("state", .string(snapshot.state.rawValue)),
            .init("position", view.position.map { .number(RemoteProperties.rounded($0)) } ?? .null),
            .init("duration", view.hasItem ? snapshot.duration.map { .number(RemoteProperties.rounded($0)) } ?? .null : .null),
            .init("title", .string(snapshot.item?.title)),
            .init("label", .string(snapshot.item?.label)),
            .init("playlist-pos", .number(Double(snapshot.queueIndex ?? -1))),
            .init("playlist-count", .number(Double(view.queue.count))),
            .init("speed", .number(snapshot.speed)),
            .init("volume", .number(RemoteProperties.rounded(VolumeScale.percent(linear: snapshot.volume), places: 2))),
            .init("voice", .string(view.voice)),
        ])
    }

    /// `90`, `90s`, `30m`, `1h`: seconds.
    static func duration(_ text: String) -> Double? {
        for (unit, scale) in [("min", 60.0), ("s", 1.0), ("m", 60.0), ("h", 3600.0)] where text.hasSuffix(unit) {
            return Double(text.dropLast(unit.count)).map { $0 * scale }
        }
        return Double(text)
    }

    /// A value as `get_property_string` gives it.
    static func text(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string: return value
        case .bool(let flag): return .string(flag ? "yes" : "no")
        case .number(let number): return .string(number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number))
        case .null: return .null
        default: return .string(String(decoding: value.text(layout: .compact) ?? [], as: UTF8.self))
        }
    }
}
