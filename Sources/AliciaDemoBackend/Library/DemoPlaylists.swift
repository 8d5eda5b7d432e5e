/// The demo backend's playlists (alicia-api.md, "Playlists and read-aloud"): queues of episodes
/// and syntheses, the syntheses read aloud as short 24 kHz chunks (`/api/audio/chunk-<id>-<n>.wav`,
/// synthesized like voice notes). One synthesis starts "warming" (no chunks yet): `/api/speak`
/// voices it over three asks, `rendering`, `streaming` (some chunks), then `ready`.
struct DemoPlaylists: Sendable {
    struct Chunk: Codable, Sendable, Equatable {
        var url: String
        var duration: Double
        /// v2: the words it says, their timing, and whether that timing is done.
        var text: String?
        var cues: [DemoAPI.Cue]?
        var timing_status: String?
    }

    struct Speech: Codable, Sendable, Equatable {
        var chunks: [Chunk]
        var duration: Double
    }

    struct Item: Codable, Sendable, Equatable {
        var id: String
        var kind: String
        var title: String
        var body: String?
        var source: String?
        var duration: Double
        var speech: Speech?
    }

    struct Playlist: Codable, Sendable, Equatable {
        var id: String
        var name: String
        var duration: Double
        var ready: Int
        var items: [Item]
    }

    private(set) var playlists: [Playlist]
    private var lastID = 2
    /// How many times each text was asked to be spoken.
    private var spoken: [String: Int] = [:]
    /// When each text was first asked to be spoken (a voicing in time counts from there).
    private var firstAsked: [String: ContinuousClock.Instant] = [:]

    /// The chunks of a synthesis: `count` chunks of a voice-note sound each.
    static func chunks(of id: String, count: Int) -> [Chunk] {
        (0..<count).map { index in
            let number = chunkNumber(id: id, index: index)
            let sound = VoiceNoteSound(number: number)
            return Chunk(url: "/api/audio/chunk-\(id)-\(index).wav", duration: Double(sound.frameCount) / Double(sound.sampleRate))
        }
    }

    /// The voice-note sound a chunk is made of: a pure function of its name.
    static func chunkNumber(id: String, index: Int) -> Int {
        var hash = 5381
        for byte in id.utf8 { hash = (hash &* 33 &+ Int(byte)) & 0xFFFF }
        return 1000 + hash * 8 + index
    }

    static let letterText = "Dear listener, this is a letter read aloud in three short parts."
    static let warmingText = "A thought still being voiced: it is spoken on demand."

    static let standard: DemoPlaylists = {
        let letter = Item(id: "syn-letter", kind: "synthesis", title: "A Letter, Read Aloud", body: letterText, source: nil,
                          duration: 0, speech: speech(chunks(of: "syn-letter", count: 3)))
        let morning = Item(id: "ep-s1e01", kind: "episode", title: "Morning Light", body: nil, source: "S1E01",
                           duration: 180, speech: Speech(chunks: [Chunk(url: "/api/audio/s1e01.wav", duration: 180)], duration: 180))
        let warming = Item(id: "syn-warming", kind: "synthesis", title: "Still Warming", body: warmingText, source: nil,
                           duration: 0, speech: nil)
        return DemoPlaylists(playlists: [
            make(id: "p1", name: "Drive home", items: [withDuration(letter), morning]),
            make(id: "p2", name: "Bedtime", items: [warming, withDuration(letter)]),
        ])
    }()

    private init(playlists: [Playlist]) {
        self.playlists = playlists
    }

    private static func speech(_ chunks: [Chunk]) -> Speech {
        Speech(chunks: chunks, duration: chunks.reduce(0) { $0 + $1.duration })
    }

    private static func withDuration(_ item: Item) -> Item {
        var item = item
        item.duration = item.speech?.duration ?? 0
        return item
    }

    private static func make(id: String, name: String, items: [Item]) -> Playlist {
        Playlist(id: id, name: name, duration: items.reduce(0) { $0 + $1.duration },
                 ready: items.filter { !($0.speech?.chunks.isEmpty ?? true) }.count, items: items)
    }

    // MARK: /api/playlist

    struct Action: Decodable, Sendable {
        var action: String
        var name: String?
        var playlist_id: String?
        var id: String?
        var kind: String?
        var title: String?
        var source: String?
        var duration: Double?
        var audio_url: String?
        var body: String?
        var order: [String]?
    }

    /// Applies an action; nil on success, else what is wrong.
    mutating func apply(_ action: Action) -> String? {
        func index(_ id: String?) -> Int? { playlists.firstIndex { $0.id == id } }
        switch action.action {
        case "create":
            lastID += 1
            playlists.append(Self.make(id: "p\(lastID)", name: action.name ?? "Untitled", items: []))
        case "rename":
            guard let i = index(action.playlist_id) else { return "no playlist \(action.playlist_id ?? "(none)")" }
            playlists[i].name = action.name ?? "Untitled"
        case "delete":
            guard let i = index(action.playlist_id) else { return "no playlist \(action.playlist_id ?? "(none)")" }
            playlists.remove(at: i)
        case "add":
            guard let i = index(action.playlist_id) else { return "no playlist \(action.playlist_id ?? "(none)")" }
            let kind = action.kind ?? "synthesis"
            let id = action.id ?? "item-\(playlists[i].items.count + 1)"
            var item = Item(id: id, kind: kind, title: action.title ?? "Untitled", body: action.body, source: action.source,
                            duration: action.duration ?? 0, speech: nil)
            if kind == "episode", let url = action.audio_url {
                item.speech = Speech(chunks: [Chunk(url: url, duration: action.duration ?? 0)], duration: action.duration ?? 0)
            } else if kind == "synthesis" {
                item.speech = Self.speech(Self.chunks(of: id, count: 2))
                item.duration = item.speech!.duration
            }
            playlists[i] = Self.make(id: playlists[i].id, name: playlists[i].name, items: playlists[i].items + [item])
        case "remove":
            guard let i = index(action.playlist_id) else { return "no playlist \(action.playlist_id ?? "(none)")" }
            guard playlists[i].items.contains(where: { $0.id == action.id }) else { return "no item \(action.id ?? "(none)") in \(playlists[i].name)" }
            playlists[i] = Self.make(id: playlists[i].id, name: playlists[i].name, items: playlists[i].items.filter { $0.id != action.id })
        case "reorder":
            guard let i = index(action.playlist_id) else { return "no playlist \(action.playlist_id ?? "(none)")" }
            let order = action.order ?? []
            let items = playlists[i].items
            guard Set(order) == Set(items.map(\.id)), order.count == items.count else { return "the order must name every item once" }
            playlists[i] = Self.make(id: playlists[i].id, name: playlists[i].name,
                                     items: order.compactMap { id in items.first { $0.id == id } })
        default:
            return "unknown action \(action.action)"
        }
        return nil
    }

    // MARK: /api/speak

    struct SpeakReply: Codable, Sendable {
        var status: String
        var chunks: [Chunk]
        var duration: Double
        /// v2 (`DemoSpeech.annotated`).
        var spoken_text: String?
        var timing_status: String?
        var speech_backend: String?
    }

    /// The letter, asked for alone or in the app's form, `"<title>.\n\n<body>"`.
    static func isLetter(_ text: String) -> Bool {
        text == letterText || text.hasSuffix("\n\n" + letterText)
    }

    /// Voicing `text` on demand: the warming synthesis goes rendering → streaming → ready over
    /// three asks; a known synthesis is ready at once; an empty text is `empty`.
    /// With `voicing`, any other text is voiced in time: its chunks appear as its delays pass.
    mutating func speak(_ text: String, voicing: DemoBackend.Voicing? = nil) -> SpeakReply {
        guard !text.allSatisfy(\.isWhitespace) else { return SpeakReply(status: "empty", chunks: [], duration: 0) }
        let asked = (spoken[text] ?? 0) + 1
        spoken[text] = asked
        let id = Self.isLetter(text) ? "syn-letter" : "spoken-\(text.utf8.count)"
        if let voicing, !Self.isLetter(text) { return speak(text, id: id, voicing: voicing) }
        let all = Self.chunks(of: id, count: 3)
        if Self.isLetter(text) || asked >= 3 {
            return SpeakReply(status: "ready", chunks: all, duration: all.reduce(0) { $0 + $1.duration })
        }
        if asked == 2 {
            let some = Array(all.prefix(1))
            return SpeakReply(status: "streaming", chunks: some, duration: some.reduce(0) { $0 + $1.duration })
        }
        return SpeakReply(status: "rendering", chunks: [], duration: 0)
    }

    /// When `text` was first asked for with a voicing in time (its chunks' delays count from there).
    func voicingStart(of text: String) -> ContinuousClock.Instant? { firstAsked[text] }

    private mutating func speak(_ text: String, id: String, voicing: DemoBackend.Voicing) -> SpeakReply {
        let now = ContinuousClock.now
        let first = firstAsked[text] ?? now
        firstAsked[text] = first
        let all = Self.chunks(of: id, count: voicing.chunkDelays.count)
        let (count, failed) = voicing.voiced(after: now - first)
        let some = Array(all.prefix(count))
        let duration = some.reduce(0) { $0 + $1.duration }
        if failed { return SpeakReply(status: "failed", chunks: some, duration: duration) }
        if count == 0 { return SpeakReply(status: "rendering", chunks: [], duration: 0) }
        return SpeakReply(status: count == all.count ? "ready" : "streaming", chunks: some, duration: duration)
    }

    /// The sound of `/api/audio/chunk-<id>-<n>.wav`.
    static func chunkSound(named base: String) -> VoiceNoteSound? {
        guard base.hasPrefix("chunk-"), let dash = base.lastIndex(of: "-"), let index = Int(base[base.index(after: dash)...]),
              index >= 0, index < 16 else { return nil }
        let id = String(base[base.index(base.startIndex, offsetBy: 6)..<dash])
        guard !id.isEmpty else { return nil }
        return VoiceNoteSound(number: chunkNumber(id: id, index: index))
    }
}
