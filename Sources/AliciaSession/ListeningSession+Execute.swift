import AliciaAudio
import AliciaJSON
import AliciaLocks

/// What a command line carried out in-process came to: the session's reply, a value read, or why
/// it could not be done (one line).
package enum CommandOutcome: Sendable, Equatable {
    /// The command the line made, carried out, and the session's reply.
    case performed(TransportCommand, TransportReply)
    case value(JSONValue)
    case failed(String)

    /// Why nothing was done, if nothing was.
    package var problem: String? {
        switch self {
        case .performed(_, .refused(let why)), .performed(_, .invalid(let why)), .failed(let why): return why
        default: return nil
        }
    }
}

extension ListeningSession {
    /// Carries out a request of the command table here, on the session's thread, with the meaning
    /// the socket gives it: the Studio's keys and a script's lines come through it. `resolve` turns
    /// the reference of a `loadfile` or `voice` into items (without it they are refused).
    package func execute(_ request: CommandRequest,
                         resolve: ((String) -> Result<[QueueItem], UsageError>)? = nil) -> CommandOutcome {
        switch SessionCommands.resolve(request, PropertyReading(view, version: Product.version)) {
        case .failure(let failure): return .failed(failure.message)
        case .success(.perform(let command)): return .performed(command, perform(command))
        case .success(.value(let value)): return .value(value)
        case .success(.load(let reference, let mode)):
            guard let resolve else { return .failed("loadfile needs a reference this front end can resolve") }
            switch resolve(reference) {
            case .success(let items):
                let command = TransportCommand.load(LoadPlan(items, mode: mode))
                return .performed(command, perform(command))
            case .failure(let problem): return .failed(problem.message)
            }
        case .success(.voice(let reference)):
            guard let resolve else { return .failed("voice needs a reference this front end can resolve") }
            switch resolve(reference.hasPrefix("voice:") ? reference : "voice:" + reference) {
            case .success(let items):
                guard let note = items.first else { return .failed("no voice note there") }
                return .performed(.voiceNote(note), perform(.voiceNote(note)))
            case .failure(let problem): return .failed(problem.message)
            }
        case .success(.socket):
            return .failed("that command is for control socket clients")
        }
    }

    /// Carries out one command line (an alias expanded first), as `execute` does each of its requests.
    package func execute(line: String, resolve: ((String) -> Result<[QueueItem], UsageError>)? = nil) -> CommandOutcome {
        guard let words = SessionCommands.words(ofLine: line), !words.isEmpty else { return .failed("not a command line: '\(line.prefix(60))'") }
        switch CommandAliases.requests(words) {
        case .failure(let problem): return .failed(problem.message)
        case .success(let requests):
            var outcome = CommandOutcome.value(.null)
            for request in requests {
                outcome = execute(request, resolve: resolve)
                if outcome.problem != nil { return outcome }
            }
            return outcome
        }
    }
}
