import AliciaAudio
import AliciaJSON

/// What a request of the table comes to against the session as it stands now: a command for the
/// session's thread, a value read at once, a reference to resolve first, or something that only
/// the socket has (observers, events, a connection's name). The socket and every in-process front
/// end (keys, script lines) go through this one mapping, so a line means the same to each.
package enum ResolvedRequest: Sendable, Equatable {
    case perform(TransportCommand)
    case value(JSONValue)
    /// Items to resolve from a reference (the backend may be needed), then `load` with `mode`.
    case load(reference: String, mode: TransportCommand.LoadMode)
    /// A voice note to resolve, then play.
    case voice(reference: String)
    /// The socket's own: observing, events, the client's name, the version.
    case socket(CommandRequest)
}

extension PropertyFailure {
    /// The failure in one line, naming the property.
    package func message(_ name: String) -> String {
        switch self {
        case .notFound: return "no property '\(name.prefix(40))'"
        case .unavailable: return "\(name.prefix(40)) has no value now"
        case .format(let expected): return "\(name.prefix(40)) takes \(expected)"
        case .readOnly: return "\(name.prefix(40)) cannot be set"
        }
    }
}

extension SessionCommands {
    /// `request` read against `reading`: the property commands become the command they make,
    /// reads their value; a failure names the property.
    package static func resolve(_ request: CommandRequest, _ reading: PropertyReading) -> Result<ResolvedRequest, NamedFailure> {
        func command(_ made: Result<TransportCommand, PropertyFailure>, _ name: String) -> Result<ResolvedRequest, NamedFailure> {
            made.map { .perform($0) }.mapError { NamedFailure(failure: $0, name: name) }
        }
        switch request {
        case .perform(let transport): return .success(.perform(transport))
        case .load(let reference, let mode): return .success(.load(reference: reference, mode: mode))
        case .voice(let reference): return .success(.voice(reference: reference))
        case .getProperty(let name, let text):
            return SessionProperties.get(name, reading).map { .value(text ? SessionProperties.text($0) : $0) }
                .mapError { NamedFailure(failure: $0, name: name) }
        case .setProperty(let name, let value): return command(SessionProperties.set(name, value, reading), name)
        case .add(let name, let step): return command(SessionProperties.add(name, step, reading), name)
        case .cycle(let name): return command(SessionProperties.cycle(name, reading), name)
        case .status: return .success(.value(SessionStatus.json(reading)))
        case .observe, .unobserve, .event, .clientName, .version: return .success(.socket(request))
        }
    }

    /// A property failure with the property it is about.
    package struct NamedFailure: Error, Sendable, Equatable {
        package let failure: PropertyFailure
        package let name: String

        package var message: String { failure.message(name) }
    }
}
