internal import AliciaJSON
import AliciaLocks

/// The backend's logic: authentication, routing, injected failures and the request log, with the
/// endpoints themselves in `DemoService+Media.swift`, `+Chat.swift`, `+Catalog.swift` and
/// `+Alicia2.swift`.
///
/// Called concurrently from libmicrohttpd's connection threads: everything here is immutable or
/// behind a `Locked`.
final class DemoService: HTTPRequestHandler {
    let token: String
    let faults: DemoBackend.Faults
    let dialect: DemoBackend.Dialect
    /// Playlist episodes' URLs as the phone's absolute ones, when set.
    let foreignMedia: DemoBackend.ForeignMedia?
    let library: DemoLibrary
    let stopSignal: StopSignal
    let log = RequestLog()
    /// What was said and done while running, and the settings that can change meanwhile.
    let conversation = Locked(DemoConversation())

    private let failures: Locked<FailureSchedule>
    /// The last chat message number handed out; voice notes exist up to it. It starts at 100, as if
    /// a conversation had come before (and left voice notes 1…100).
    let latestMessageID = Locked(100)
    /// The playlists as the listener has edited them, and what `/api/speak` has voiced.
    let playlists = Locked(DemoPlaylists.standard)

    init(token: String, faults: DemoBackend.Faults, dialect: DemoBackend.Dialect, foreignMedia: DemoBackend.ForeignMedia?,
         library: DemoLibrary, stopSignal: StopSignal) {
        self.token = token
        self.faults = faults
        self.dialect = dialect
        self.foreignMedia = foreignMedia
        self.library = library
        self.stopSignal = stopSignal
        failures = Locked(FailureSchedule(rate: faults.failureRate, seed: faults.failureSeed))
    }

    func reply(to request: HTTPRequest) -> HTTPReply {
        var reply = route(request)
        let sent: Int
        switch reply.body {
        case .bytes(let bytes): sent = request.isHead ? 0 : bytes.count
        case .stream: sent = 0
        }
        let entry = log.record(
            LoggedRequest(method: request.method, path: RequestLog.redacted(request.target), status: reply.status, bodyBytes: sent,
                          range: request.header("range"), requestID: request.path == "/api/chat" ? Self.requestID(of: request) : nil)
        )
        if case .stream(let length, let producer) = reply.body {
            reply.body = .stream(length: length, producer: CountingProducer(producer, log: log, entry: entry))
        }
        return reply
    }

    /// The API's endpoints, by path under `/api/`.
    private enum Endpoint {
        case tracks, audio(String), chat, react, proactive, episode(String), health, playlists, playlist, speak
        // Alicia 2.0 (v2 only).
        case reply, morningBriefing, briefingAudio(String), syntheses, reflections, history, episodeDay

        init?(_ segments: [Substring]) {
            switch segments.count {
            case 1:
                guard let endpoint = Self.single[String(segments[0])] else { return nil }
                self = endpoint
            case 2 where !segments[1].isEmpty:
                switch segments[0] {
                case "audio": self = .audio(String(segments[1]))
                case "episode": self = .episode(String(segments[1]))
                default: return nil
                }
            case 3 where segments[0] == "morning_briefing" && segments[1] == "audio" && !segments[2].isEmpty:
                self = .briefingAudio(String(segments[2]))
            default:
                return nil
            }
        }

        private static let single: [String: Endpoint] = [
            "tracks": .tracks, "chat": .chat, "react": .react, "proactive": .proactive, "health": .health, "playlists": .playlists,
            "playlist": .playlist, "speak": .speak, "reply": .reply, "morning_briefing": .morningBriefing, "syntheses": .syntheses,
            "reflections": .reflections, "history": .history, "episode_day": .episodeDay,
        ]

        var methods: [String] {
            switch self {
            case .chat, .react, .playlist, .speak, .reply: ["POST"]
            case .episodeDay: ["GET", "HEAD", "POST"]
            default: ["GET", "HEAD"]
            }
        }

        /// Only Alicia 2.0 has it: an older backend answers 404.
        var isAlicia2: Bool {
            switch self {
            case .reply, .morningBriefing, .briefingAudio, .syntheses, .reflections, .history, .episodeDay: true
            default: false
            }
        }
    }

    private func route(_ request: HTTPRequest) -> HTTPReply {
        let segments = request.path.split(separator: "/", omittingEmptySubsequences: false)
        guard segments.count >= 3, segments[0].isEmpty, segments[1] == "api" else {
            return .error(404, "not found: \(request.path)")
        }
        guard isAuthorized(request) else {
            return .error(401, "missing or wrong token", headers: [("WWW-Authenticate", #"Bearer realm="alicia""#)])
        }
        guard let endpoint = Endpoint(Array(segments.dropFirst(2))), dialect == .v2 || !endpoint.isAlicia2 else {
            return .error(404, "not found: \(request.path)")
        }
        guard endpoint.methods.contains(request.method) else {
            return .error(405, "\(request.method) is not allowed on \(request.path)", headers: [("Allow", endpoint.methods.joined(separator: ", "))])
        }
        if failures.withLock({ $0.nextFails() }) {
            return .error(500, "injected failure (DemoBackend.Faults.failureRate)")
        }
        switch endpoint {
        case .tracks: return .json(library.episodes)
        case .audio(let name): return audio(name, request)
        case .chat: return chat(request)
        case .react: return react(request)
        case .proactive: return proactive(request)
        case .episode(let label): return episodeNotes(label)
        case .health: return .json(BackendVitals.all)
        case .playlists: return .json(shelf(playlists.withLock { $0.playlists }))
        case .playlist: return playlistAction(request)
        case .speak: return speak(request)
        case .reply: return replyToProactive(request)
        case .morningBriefing: return .json(DemoReadings.briefing(conversation.withLock { $0.briefing }))
        case .briefingAudio(let name): return briefingAudio(name, request)
        case .syntheses: return .json(DemoReadings.syntheses)
        case .reflections: return .json(DemoReadings.reflections)
        case .history: return history()
        case .episodeDay: return request.method == "POST" ? recordEpisodeDay(request) : episodeDayFrame(request)
        }
    }

    /// The `request_id` of a chat body, for the request log.
    private static func requestID(of request: HTTPRequest) -> String? {
        struct Body: Decodable { var request_id: String? }
        return (try? JSON.decode(Body.self, from: request.body))?.request_id
    }

    /// `Authorization: Bearer <token>` or `?token=<token>` (libmicrohttpd has percent-decoded it).
    private func isAuthorized(_ request: HTTPRequest) -> Bool {
        if let authorization = request.header("authorization") {
            let parts = authorization.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "bearer", parts[1].drop(while: { $0 == " " }) == token {
                return true
            }
        }
        return request.query["token"] == token
    }

    /// A request body this endpoint cannot take, as a reply.
    struct BadBody: Error {
        let status: Int
        let message: String
    }

    /// Decodes a JSON body, or says what is wrong with it.
    /// `answer` to `request`'s body, decoded; a body too large or not the JSON asked for gets its
    /// error status instead.
    func withBody<Body: Decodable>(_ type: Body.Type, of request: HTTPRequest, _ answer: (Body) -> HTTPReply) -> HTTPReply {
        do {
            return answer(try decodeBody(type, from: request))
        } catch {
            return .error(error.status, error.message)
        }
    }

    func decodeBody<Body: Decodable>(_ type: Body.Type, from request: HTTPRequest) throws(BadBody) -> Body {
        guard !request.bodyTruncated else {
            throw BadBody(status: 413, message: "the body is larger than \(MHDRequestDispatcher.bodyLimit) bytes")
        }
        do {
            return try JSON.decode(type, from: request.body)
        } catch {
            throw BadBody(status: 400, message: "the body is not the JSON this endpoint takes: \(error)")
        }
    }
}
