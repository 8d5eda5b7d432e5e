#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaJSON
import AliciaSession

/// The socket's commands: a JSON command array or a text command line, parsed through the one
/// command table (`SessionCommands`); changes go to the session's thread as `TransportCommand`s,
/// reads are answered here from the property table.
extension ControlLoop {
    /// The client API version `get_version` reports: mpv 0.35's (2.0), which clients check against.
    static let clientAPIVersion = 131_072

    /// The reply to `request`, or nil when it comes later (through the inbox).
    func execute(_ request: IPCRequest, from connection: Connection) -> IPCResult? {
        guard let name = request.name else { return .failure(IPCFailure(.invalidParameter)) }
        if CommandAliases.alias(named: name) != nil { return aliased(name, request, connection) }
        switch SessionCommands.request(name, Array(request.arguments)) {
        case .failure(let problem):
            return .failure(IPCFailure(.invalidParameter, problem.message))
        case .success(let made):
            return carryOut(made, request, connection)
        }
    }

    /// An alias of the grammar (`chapter +1`, `volume +5`): carried out as the one line of the
    /// table it stands for. One that stands for several (`play a b`) is a script's and `ctl`'s.
    private func aliased(_ name: String, _ request: IPCRequest, _ connection: Connection) -> IPCResult? {
        let words = [name] + request.arguments.map { $0.stringValue ?? "" }
        switch CommandAliases.requests(words) {
        case .failure(let problem): return .failure(IPCFailure(.invalidParameter, problem.message))
        case .success(let requests) where requests.count == 1: return carryOut(requests[0], request, connection)
        case .success: return .failure(IPCFailure(.invalidParameter, "\(name) stands for several commands here: send them one by one"))
        }
    }

    private func carryOut(_ made: CommandRequest, _ request: IPCRequest, _ connection: Connection) -> IPCResult? {
        switch made {
        case .perform(let command):
            return perform(command, request, connection)
        case .load(let reference, let mode):
            let resolve = hooks.resolve
            let remote = self.remote
            return elsewhere(request, connection) { done in
                switch resolve(reference) {
                case .failure(let problem): done(.failure(IPCFailure(.loadingFailed, problem.message)))
                case .success(let items): remote.post(.load(LoadPlan(items, mode: mode))) { done(Self.result(of: $0)) }
                }
            }
        case .voice(let reference):
            guard view.hasVoiceNotes else { return .failure(IPCFailure(.command, "this player has no voice-note player")) }
            let resolve = hooks.resolve
            let remote = self.remote
            return elsewhere(request, connection) { done in
                switch resolve(reference.hasPrefix("voice:") ? reference : "voice:" + reference) {
                case .failure(let problem): done(.failure(IPCFailure(.loadingFailed, problem.message)))
                case .success(let items):
                    guard let note = items.first else { return done(.failure(IPCFailure(.loadingFailed, "no voice note there"))) }
                    remote.post(.voiceNote(note)) { done(Self.result(of: $0)) }
                }
            }
        case .getProperty(let name, let text):
            return Self.result(of: SessionProperties.get(name, reading()), name).map { value in text ? SessionProperties.text(value ?? .null) : value }
        case .setProperty(let name, let value):
            return propertyCommand(SessionProperties.set(name, value, reading()), name, request, connection)
        case .add(let name, let step):
            return propertyCommand(SessionProperties.add(name, step, reading()), name, request, connection)
        case .cycle(let name):
            return propertyCommand(SessionProperties.cycle(name, reading()), name, request, connection)
        case .observe(let id, let name):
            guard SessionProperties.property(named: name) != nil else {
                return .failure(IPCFailure(.propertyNotFound, "no property '\(name.prefix(40))'"))
            }
            // Its value follows the reply at once (`sendFirstValues`), as mpv's does.
            connection.observed.removeAll { $0.id == id }
            connection.observed.append((id, name, nil, 0))
            return .success(nil)
        case .unobserve(let id):
            connection.observed.removeAll { $0.id == id }
            return .success(nil)
        case .event(let name, let enabled):
            if enabled {
                if name == "all" { connection.disabled.removeAll() } else { connection.disabled.remove(name) }
            } else {
                connection.disabled.insert(name)
            }
            return .success(nil)
        case .clientName:
            return .success(.string(connection.name ?? "ipc-\(connection.id)"))
        case .version:
            return .success(.number(Double(Self.clientAPIVersion)))
        case .status:
            return .success(SessionStatus.json(reading()))
        }
    }

    func reading() -> PropertyReading { PropertyReading(view, version: hooks.version) }

    /// Runs `command` on the session's thread; its reply is the request's.
    private func perform(_ command: TransportCommand, _ request: IPCRequest, _ connection: Connection) -> IPCResult? {
        let done = later(request, connection)
        remote.post(command) { done(Self.result(of: $0)) }
        return nil
    }

    private func propertyCommand(_ made: Result<TransportCommand, PropertyFailure>, _ name: String,
                                 _ request: IPCRequest, _ connection: Connection) -> IPCResult? {
        switch made {
        case .success(let command): return perform(command, request, connection)
        case .failure(let failure): return .failure(Self.failure(failure, name))
        }
    }

    static func result(of reply: TransportReply) -> IPCResult {
        switch reply {
        case .done: return .success(nil)
        case .entry(let id): return .success(.object([.init("playlist_entry_id", .number(Double(id.rawValue)))]))
        case .text(let text): return .success(.string(text))
        case .refused(let message): return .failure(IPCFailure(.command, message))
        case .invalid(let message): return .failure(IPCFailure(.invalidParameter, message))
        }
    }

    static func result(of read: Result<JSONValue, PropertyFailure>, _ name: String) -> IPCResult {
        switch read {
        case .success(let value): return .success(value)
        case .failure(let failure): return .failure(Self.failure(failure, name))
        }
    }

    static func failure(_ failure: PropertyFailure, _ name: String) -> IPCFailure {
        switch failure {
        case .notFound: return IPCFailure(.propertyNotFound, "no property '\(name.prefix(40))'")
        case .unavailable: return IPCFailure(.propertyUnavailable)
        case .format(let expected): return IPCFailure(.propertyFormat, "\(name) takes \(expected)")
        case .readOnly: return IPCFailure(.propertyError, "\(name) cannot be set")
        }
    }
}
