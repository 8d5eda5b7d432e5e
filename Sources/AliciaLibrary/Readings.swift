import AliciaAudio
import AliciaBackend
import AliciaSession
import AliciaLocks

/// Alicia's spoken pieces beside her episodes (alicia-api.md, "Alicia 2.0"), as queue items:
/// today's **morning briefing** (`briefing`: playable only when ready, with its audio and its
/// measured length), her **syntheses** (`syntheses`, `synthesis:PIECE`) and **reflections**
/// (`reflections`): a reading made beforehand plays as it is; one without is voiced through
/// `/api/speak`, asked as the app asks (`SpeechVoicing`), and plays as it is voiced.
package enum Readings {
    /// The references, as `play`, scripts and the socket take them.
    package static let briefingReference = "briefing"
    package static let synthesesReference = "syntheses"
    package static let reflectionsReference = "reflections"
    package static let synthesisPrefix = "synthesis:"

    /// Whether `reference` names a reading.
    package static func names(_ reference: String) -> Bool {
        [briefingReference, synthesesReference, reflectionsReference].contains(reference) || reference.hasPrefix(synthesisPrefix)
    }

    /// What `reference` names, voiced where it needs to be.
    package static func items(_ reference: String, client: BackendClient, stop: () -> Bool) -> Result<[QueueItem], QueueFile.Problem> {
        do throws(BackendError) {
            switch reference {
            case briefingReference: return briefing(try client.morningBriefing(), client: client).map { [$0] }
            case reflectionsReference: return all(try client.reflections().map(reading), client: client, stop: stop)
            case synthesesReference: return all(try client.syntheses().map(reading), client: client, stop: stop)
            default:
                let piece = String(reference.dropFirst(synthesisPrefix.count)).lowercased()
                let matching = try client.syntheses().filter { $0.title.lowercased().contains(piece) }
                guard matching.count == 1 else {
                    return .failure(.init(line: nil, matching.isEmpty ? "no synthesis of Alicia's is called '\(piece)'"
                        : "'\(piece)' names \(matching.count) syntheses (\(matching.map(\.title).joined(separator: ", "))); say which"))
                }
                return all([reading(matching[0])], client: client, stop: stop)
            }
        } catch {
            return .failure(.init(line: nil, "\(reference): \(error.message)"))
        }
    }

    /// Today's briefing, when it can play: its audio (Range requests), its length; else why not.
    package static func briefing(_ briefing: MorningBriefing, client: BackendClient) -> Result<QueueItem, QueueFile.Problem> {
        switch briefing.status {
        case .preparing:
            return .failure(.init(line: nil, "today's briefing is still being prepared: try again in a few minutes"))
        case .unavailable, .other:
            return .failure(.init(line: nil, "there is no briefing today" + (briefing.error.map { " (\($0))" } ?? "")))
        case .ready:
            break
        }
        guard briefing.isPlayable, let path = briefing.audioURL, let id = briefing.id,
              let location = client.mediaLocation(for: path) else {
            return .failure(.init(line: nil, "today's briefing is ready but has no audio to play yet"))
        }
        var item = QueueItem(location: location, title: briefing.title ?? "Morning briefing", positionKey: "briefing:" + id.text,
                             reference: briefingReference)
        item.duration = briefing.duration
        item.artist = "Alicia"
        return .success(item)
    }

    /// A reading: its title, what it says, and its speech when made beforehand.
    struct Reading {
        var title: String
        var request: SpeechVoicing.Request
        var speech: SpeechStatus?
        var key: String
    }

    static func reading(_ synthesis: Synthesis) -> Reading {
        Reading(title: synthesis.title, request: .init(title: synthesis.title, body: synthesis.body, kind: .synthesis),
                speech: synthesis.speech, key: synthesisPrefix + synthesis.title)
    }

    static func reading(_ reflection: Reflection) -> Reading {
        let title = "\(reflection.kind.map { $0.prefix(1).uppercased() + $0.dropFirst() } ?? "A") reflection"
            + (reflection.date.map { " · \($0)" } ?? "")
        return Reading(title: title, request: .init(title: nil, body: reflection.text, kind: .thought), speech: reflection.speech,
                       key: "reflection:" + (reflection.id?.text ?? reflection.date ?? title))
    }

    /// Each reading as an item: its speech made beforehand, else voiced now; one that cannot be
    /// voiced is a warning and the rest go on.
    static func all(_ readings: [Reading], client: BackendClient, stop: () -> Bool) -> Result<[QueueItem], QueueFile.Problem> {
        var items: [QueueItem] = []
        var problems: [String] = []
        for reading in readings {
            switch item(reading, client: client, stop: stop) {
            case .success(let item): items.append(item)
            case .failure(let problem): problems.append(problem.message)
            }
        }
        guard !items.isEmpty else { return .failure(.init(line: nil, problems.first ?? "Alicia has nothing of that kind to read")) }
        for problem in problems { Console.fail("warning: " + problem + " (skipped)") }
        return .success(items)
    }

    static func item(_ reading: Reading, client: BackendClient, stop: () -> Bool) -> Result<QueueItem, QueueFile.Problem> {
        if let speech = reading.speech, speech.state == .ready, !speech.chunks.isEmpty {
            let locations = speech.chunks.compactMap { client.mediaLocation(for: $0.url) }
            guard let first = locations.first, locations.count == speech.chunks.count else {
                return .failure(.init(line: nil, "\(reading.title) has a chunk path that is not a URL"))
            }
            var item = QueueItem(location: first, title: reading.title, positionKey: reading.key, reference: reading.key)
            item.moreParts = Array(locations.dropFirst())
            item.duration = speech.duration
            item.transcript = SpeechTranscript.cues(chunks: speech.chunks, text: speech.spokenText ?? reading.request.body)
            return .success(OfflineCache.substitute(chunks: speech.chunks.map(\.url), of: item))
        }
        var voiced = SpeechVoicing.item(reading.request, title: reading.title, reference: reading.key, client: client, stop: stop)
        if case .success(var item) = voiced {
            item.positionKey = reading.key
            voiced = .success(item)
        }
        return voiced
    }
}
