import AliciaAudio
import AliciaJSON

/// Turns the players' events into mpv's: `start-file`, `file-loaded`, `playback-restart`, `seek`,
/// `end-file` with its reason, `idle`; and ours, `voice-start` and `voice-end`.
struct EventTranslator {
    typealias Event = (name: String, fields: [JSONValue.Member])

    /// The entry whose `start-file` was said and whose `end-file` was not.
    private var current: QueueEntryID?
    /// Entries whose format is known (opened ahead of a join, before they start).
    private var loaded: Set<QueueEntryID> = []
    private var loadedSaid = false
    /// A seek happened since observers were last refreshed (time-pos is then sent at once).
    var seekedSinceRefresh = false
    /// The voice note playing, by its entry in the voice player's queue.
    private var voice: (entry: QueueEntryID, title: String)?

    mutating func translate(_ event: PlayerEvent) -> [Event] {
        var said: [Event] = []
        switch event.kind {
        case .entryStarted:
            guard let entry = event.entry else { break }
            if let current, current != entry { said.append(end(current, reason: "stop")) }
            said += start(entry)
        case .formatKnown:
            guard let entry = event.entry else { break }
            loaded.insert(entry)
            if entry == current && !loadedSaid {
                loadedSaid = true
                said.append(("file-loaded", []))
                said.append(("playback-restart", []))
            }
        case .seeked:
            seekedSinceRefresh = true
            said.append(("seek", []))
            said.append(("playback-restart", []))
        case .ended:
            guard let entry = event.entry else { break }
            if current == nil || current == entry {
                if current == nil { said += start(entry) }
                said.append(end(entry, reason: "eof"))
            }
        case .failed(let error):
            guard let entry = event.entry else { break }
            if let current, current != entry { said.append(end(current, reason: "stop")) }
            if current != entry { said += start(entry, loadedToo: false) }
            var ended = end(entry, reason: "error")
            ended.fields.append(.init("file_error", .string(error.message)))
            said.append(ended)
        case .stopped:
            if let current { said.append(end(current, reason: "stop")) }
            said.append(("idle", []))
        case .queueEnded:
            if let current { said.append(end(current, reason: "eof")) }
            said.append(("idle", []))
        case .silenceSkipped:
            // The listener's position jumped: observers of time-pos hear of it at once.
            seekedSinceRefresh = true
        case .sleepTimerEnded:
            said.append(("alicia-sleep-ended", []))
        case .metadataChanged:
            // mpv's word for a stream's new title (ICY StreamTitle).
            said.append(("metadata-update", []))
        case .stateChanged, .cueReached, .queueChanged, .loudnessMeasured, .outputMoved, .ownerChanged:
            break
        }
        return said
    }

    /// What is said when the player quits while an item is heard.
    mutating func quit() -> [Event] {
        guard let current else { return [] }
        return [end(current, reason: "quit")]
    }

    private mutating func start(_ entry: QueueEntryID, loadedToo: Bool = true) -> [Event] {
        current = entry
        loadedSaid = false
        var said: [Event] = [("start-file", [.init("playlist_entry_id", .number(Double(entry.rawValue)))])]
        if loadedToo && loaded.contains(entry) {
            loadedSaid = true
            said.append(("file-loaded", []))
            said.append(("playback-restart", []))
        }
        return said
    }

    private mutating func end(_ entry: QueueEntryID, reason: String) -> Event {
        if current == entry { current = nil }
        loaded.remove(entry)
        return ("end-file", [.init("reason", .string(reason)), .init("playlist_entry_id", .number(Double(entry.rawValue)))])
    }

    /// The voice-note player's events, read against its queue.
    mutating func translateVoice(_ event: PlayerEvent, queue: PlayQueue) -> [Event] {
        var said: [Event] = []
        switch event.kind {
        case .entryStarted:
            guard let entry = event.entry else { break }
            if let voice, voice.entry != entry { said.append(voiceEnd(reason: "stop")) }
            let title = queue.entry(entry)?.item.title ?? ""
            voice = (entry, title)
            said.append(("voice-start", [.init("title", .string(title))]))
        case .ended:
            if voice != nil, voice?.entry == event.entry { said.append(voiceEnd(reason: "eof")) }
        case .failed(let error):
            if voice?.entry == event.entry || voice == nil {
                if voice == nil { voice = (event.entry ?? QueueEntryID(rawValue: 0), queue.entry(event.entry ?? QueueEntryID(rawValue: 0))?.item.title ?? "") }
                var ended = voiceEnd(reason: "error")
                ended.fields.append(.init("file_error", .string(error.message)))
                said.append(ended)
            }
        case .stopped:
            if voice != nil { said.append(voiceEnd(reason: "stop")) }
        default:
            break
        }
        return said
    }

    private mutating func voiceEnd(reason: String) -> Event {
        let title = voice?.title ?? ""
        voice = nil
        return ("voice-end", [.init("title", .string(title)), .init("reason", .string(reason))])
    }
}
