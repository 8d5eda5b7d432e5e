import AliciaBackend
import AliciaDemoBackend
import AliciaTestSupport
import Foundation
import Testing

/// Our client against the demo backend over real loopback HTTP, in Alicia 2.0's dialect and the
/// older one: every new call, the chat's rules, listening evidence and the phone's media URLs.
@Suite("Alicia 2.0 client")
struct Alicia2ClientTests {
    static let quick = DemoBackend.Faults(chatTokenDelay: .zero)

    private func client(_ backend: DemoBackend) throws -> BackendClient {
        try BackendClient(configuration: BackendConfiguration(baseURL: backend.baseURL, token: backend.token))
    }

    @Test func proactiveMessagesRepliesAndReactions() throws {
        let backend = try DemoBackend(token: "t")
        defer { backend.stop() }
        let client = try client(backend)
        let added = backend.addProactive(text: "Shall I make tonight's episode a long one?", isAsk: true)
        let messages = try client.proactive(limit: 30)
        #expect(messages.first?.id == OpaqueID(added) && messages.first?.isAsk == true && added == "pm-319")
        let ask = try #require(messages.first)
        let response = try client.reply(to: ask.id, text: "Yes, please.")
        #expect(!response.isEmpty)
        #expect(backend.replies == [DemoBackend.ReceivedReply(proactiveID: "pm-319", text: "Yes, please.")])
        #expect(throws: BackendError.backend(endpoint: "/api/reply", message: "no proactive message pm-1")) {
            _ = try client.reply(to: "pm-1", text: "hello?")
        }
        try client.react(toProactive: ask.id, emoji: "❤️")
        try client.react(toMessage: OpaqueID(101), emoji: "👍")
        #expect(backend.reactions == [DemoBackend.ReceivedReaction(messageID: nil, proactiveID: "pm-319", emoji: "❤️"),
                                      DemoBackend.ReceivedReaction(messageID: 101, proactiveID: nil, emoji: "👍")])
        #expect(throws: BackendError.backend(endpoint: "/api/react", message: "no proactive message pm-9")) {
            try client.react(toProactive: "pm-9", emoji: "❤️")
        }
    }

    @Test func theOlderDialectDecodesToo() throws {
        let backend = try DemoBackend(token: "t", faults: Self.quick, dialect: .v1)
        defer { backend.stop() }
        let client = try client(backend)
        let messages = try client.proactive(limit: 3)
        #expect(messages.map(\.id.text) == ["318", "311", "297"] && messages.allSatisfy { $0.id.isNumber && !$0.isAsk })
        #expect(backend.addProactive(text: "new") == "319")
        guard case .done(let reply) = client.chat(ChatRequest(text: "hello", voice: false), onEvent: { _ in }) else {
            Issue.record("a v1 chat is not done")
            return
        }
        #expect(reply.replyID == nil && reply.messageID?.isNumber == true)
        try client.react(messageID: try #require(reply.messageID?.integer), emoji: "❤️")
        #expect(throws: BackendError.httpStatus(404, endpoint: "/api/morning_briefing")) { try client.morningBriefing() }
    }

    @Test func aChatIsDoneWithItsIDsAndAResendKeepsItsRequestID() throws {
        let backend = try DemoBackend(token: "t", faults: Self.quick)
        defer { backend.stop() }
        let client = try client(backend)
        let request = ChatRequest(text: "good night", voice: true)
        var events: [ChatEvent] = []
        guard case .done(let reply) = client.chat(request, onEvent: { events.append($0) }) else {
            Issue.record("not done")
            return
        }
        #expect(reply.text.contains("Nights") && reply.voice != nil && reply.replyID != nil && reply.messageID?.isNumber == true)
        #expect(events.contains(.replyID(try #require(reply.replyID))) && events.last == .done(messageID: reply.messageID))
        guard case .done(let again) = client.chat(request, onEvent: { _ in }) else {
            Issue.record("the resend is not done")
            return
        }
        #expect(again.messageID == reply.messageID, "the backend made the reply once")
        let logged = backend.requests.filter { $0.path == "/api/chat" }.map(\.requestID)
        #expect(logged == [request.requestID.text, request.requestID.text])
        let turns = try client.history()
        #expect(turns.contains { $0.role == "assistant" && $0.replyID == reply.replyID })
        #expect(turns.filter { $0.content == "good night" }.count == 1)
    }

    @Test func anErrorOrAMissingDoneFailsAfterWhatCame() throws {
        let erring = try DemoBackend(token: "t", faults: .init(chatTokenDelay: .zero, chat: .errorEvent(afterTokens: 3, message: "I lost my thread")))
        let cut = try DemoBackend(token: "t", faults: .init(chatTokenDelay: .zero, chat: .cutShort(afterTokens: 2)))
        let olderErring = try DemoBackend(token: "t", faults: .init(chatTokenDelay: .zero, chat: .errorEvent(afterTokens: 1, message: "hm")),
                                          dialect: .v1)
        defer { erring.stop(); cut.stop(); olderErring.stop() }
        let hello = ChatRequest(text: "hello", voice: false)
        guard case .failed(let partial, let reason) = try client(erring).chat(hello, onEvent: { _ in }) else {
            Issue.record("an error event did not fail the reply")
            return
        }
        #expect(reason == "I lost my thread" && partial.text.split(separator: " ").count == 3 && partial.messageID == nil)
        guard case .failed(let some, let why) = try client(cut).chat(hello, onEvent: { _ in }) else {
            Issue.record("a stream without done did not fail")
            return
        }
        #expect(why == "the reply stopped before its end" && some.text.split(separator: " ").count == 2)
        #expect(try client(olderErring).chat(hello, onEvent: { _ in }).reply?.text.isEmpty == false)
        if case .failed = try client(olderErring).chat(hello, onEvent: { _ in }) {} else { Issue.record("an error ends the reply in v1 too") }
    }

    @Test func aRefusalWithWordsIsARejectionTheRestIsUnconfirmed() throws {
        let refusing = try DemoBackend(token: "t", faults: .init(chat: .status(400, message: "not today")))
        let busy = try DemoBackend(token: "t", faults: .init(chat: .status(503, message: "busy")))
        let timing = try DemoBackend(token: "t", faults: .init(chat: .status(408, message: "slow")))
        defer { refusing.stop(); busy.stop(); timing.stop() }
        let hello = ChatRequest(text: "hello", voice: false)
        #expect(try client(refusing).chat(hello, onEvent: { _ in }) == .rejected(.backend(endpoint: "/api/chat", message: "not today")))
        #expect(try client(busy).chat(hello, onEvent: { _ in }) == .unconfirmed(.httpStatus(503, endpoint: "/api/chat")))
        #expect(try client(timing).chat(hello, onEvent: { _ in }) == .unconfirmed(.httpStatus(408, endpoint: "/api/chat")))
        let empty = try DemoBackend(token: "t")
        defer { empty.stop() }
        #expect(try client(empty).chat(ChatRequest(text: " ", voice: false), onEvent: { _ in })
            == .rejected(.backend(endpoint: "/api/chat", message: "the message is empty")))
        let wrong = try BackendClient(configuration: BackendConfiguration(baseURL: empty.baseURL, token: "wrong-s3cret"))
        let outcome = wrong.chat(hello, onEvent: { _ in })
        #expect(outcome == .rejected(.unauthorized))
        let closed = try BackendClient(configuration: BackendConfiguration(baseURL: "http://127.0.0.1:\(try LoopbackPort.unused())", token: "t"))
        if case .unconfirmed(let error) = closed.chat(hello, onEvent: { _ in }) {
            #expect(error.isUnreachable)
        } else {
            Issue.record("no answer is not unconfirmed")
        }
    }

    @Test func theMorningBriefingInEachState() async throws {
        let backend = try DemoBackend(token: "t")
        defer { backend.stop() }
        let client = try client(backend)
        let briefing = try client.morningBriefing()
        #expect(briefing.isPlayable && briefing.status == .ready && briefing.sources.count == 2)
        let audio = try #require(briefing.audioURL)
        #expect(audio.hasSuffix(".wav") && briefing.speech?.chunks.first?.cues.isEmpty == false)
        let fetched = try await Curl.run([client.mediaURL(for: audio), "--range", "0-43"])
        #expect(try fetched.single().status == 206 && (try WAVHeader(fetched.body).sampleRate) == 24_000)
        backend.briefingState = .preparing
        let preparing = try client.morningBriefing()
        #expect(preparing.status == .preparing && !preparing.isPlayable)
        #expect(try await Curl.run([client.mediaURL(for: audio)]).single().status == 404)
        backend.briefingState = .unavailable
        let none = try client.morningBriefing()
        #expect(none.status == .unavailable && none.error != nil && !none.isPlayable)
    }

    @Test func synthesesReflectionsAndHistory() throws {
        let backend = try DemoBackend(token: "t")
        defer { backend.stop() }
        let client = try client(backend)
        let pieces = try client.syntheses()
        #expect(pieces.count == 3 && pieces.filter(\.hasReading).count == 2)
        let unread = try #require(pieces.first { !$0.hasReading })
        let states = try (0..<3).map { _ in try client.speak(title: unread.title, body: unread.body, kind: .synthesis).state }
        #expect(states == [.rendering, .streaming, .ready])
        let spoken = try client.speak(title: unread.title, body: unread.body)
        #expect(spoken.spokenText == BackendClient.speechText(title: unread.title, body: unread.body) && spoken.speechBackend == "demo-hum")
        #expect(spoken.chunks.allSatisfy { $0.text != nil && !$0.cues.isEmpty && $0.timingStatus == "ready" })
        let letter = try #require(pieces.first)
        #expect(try client.speak(title: letter.title, body: letter.body).state == .ready, "the letter is known in the app's form")
        let reflections = try client.reflections()
        #expect(reflections.map(\.kind) == ["morning", "evening"] && reflections[1].speech?.state == .rendering)
        #expect(try client.history().count >= 2)
    }

    @Test func listeningEvidenceIsAcceptedDroppedOrKept() throws {
        let backend = try DemoBackend(token: "t")
        defer { backend.stop() }
        let client = try client(backend)
        let playing = EpisodeDayEvent(action: .playing, episodeID: "S1E02", positionMS: 0, playedMS: 0, title: "The Long Way Round",
                                      observedAt: 1_796_615_626)
        let progress = EpisodeDayEvent(action: .progress, episodeID: "S1E02", positionMS: 15_200, playedMS: 15_000, observedAt: 1_796_615_641)
        #expect(client.episodeDay(playing) == .accepted)
        #expect(client.episodeDay(playing) == .accepted, "a resend is harmless")
        backend.episodeDayFault = .unavailable
        if case .keep = client.episodeDay(progress) {} else { Issue.record("a 503 does not keep the event") }
        backend.episodeDayFault = .retryLater
        #expect(client.episodeDay(progress) == .keep("busy: try again later"))
        backend.episodeDayFault = .refuse
        #expect(client.episodeDay(progress) == .dropped("refused (DemoBackend.EpisodeDayFault.refuse)"))
        backend.episodeDayFault = nil
        #expect(client.episodeDay(progress) == .accepted)
        #expect(backend.episodeDayEvents.map(\.eventID) == [playing.eventID.text, progress.eventID.text])
        #expect(backend.episodeDayEvents.first?.observedAt == "2026-12-07T03:53:46Z" && backend.episodeDayEvents.first?.title == "The Long Way Round")
        let frame = try client.episodeDay(day: "2026-12-07")
        #expect(frame.day == "2026-12-07" && frame.latestPlayback?.episodeID == "S1E02")
        #expect(frame.latestPlayback?.observedAt == "2026-12-07T03:54:01Z")
        let closed = try BackendClient(configuration: BackendConfiguration(baseURL: "http://127.0.0.1:\(try LoopbackPort.unused())", token: "t"))
        if case .keep = closed.episodeDay(progress) {} else { Issue.record("no answer does not keep the event") }
    }

    @Test func thePhonesMediaURLsFallBackToOursAndNoTokenIsShown() async throws {
        let backend = try DemoBackend(token: "our-s3cret-token", foreignMedia: .phone)
        defer { backend.stop() }
        let client = try client(backend)
        let episode = try #require(try client.playlists().flatMap(\.items).first(where: \.isEpisode))
        let path = try #require(episode.chunks.first?.url)
        let urls = client.configuration.mediaURLs(for: path)
        #expect(urls.primary == path && path.hasPrefix("http://192.0.2.1:8766/"))
        let fallback = try #require(urls.fallback)
        #expect(fallback == backend.baseURL + "/api/audio/s1e01.wav?token=our-s3cret-token")
        #expect(try await Curl.run([fallback, "--range", "0-43"]).single().status == 206)
        for url in urls.all {
            let shown = BackendConfiguration.redacted(url)
            #expect(!shown.contains("our-s3cret-token") && !shown.contains("phone-token"), "\(shown)")
        }
        #expect(backend.requests.allSatisfy { !$0.path.contains("our-s3cret-token") })
        let wrong = try BackendClient(configuration: BackendConfiguration(baseURL: backend.baseURL, token: "wrong-s3cret"))
        let errors = [Self.error { () throws(BackendError) in _ = try wrong.morningBriefing() },
                      Self.error { () throws(BackendError) in _ = try wrong.reply(to: "pm-318", text: "x") }]
        #expect(errors == [.unauthorized, .unauthorized])
        for error in errors {
            #expect(error.map { !$0.message.contains("wrong-s3cret") && !$0.message.contains("our-s3cret-token") } == true, "\(String(describing: error))")
        }
    }

    private static func error(_ body: () throws(BackendError) -> Void) -> BackendError? {
        do throws(BackendError) {
            try body()
            return nil
        } catch {
            return error
        }
    }
}
