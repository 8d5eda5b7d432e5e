extension DemoService {
    /// `POST /api/reply` `{proactive_id, text}` (v2): an answer to one of her proactive messages,
    /// recorded; `{"ok": true, "response": …}`, or `{"ok": false, "error": …}` for a message she
    /// never sent or an empty answer.
    func replyToProactive(_ request: HTTPRequest) -> HTTPReply {
        return withBody(DemoAPI.ReplyRequest.self, of: request) { body in
            guard !body.text.allSatisfy(\.isWhitespace) else { return .json(DemoAPI.ReplyAnswer(ok: false, error: "the reply is empty")) }
            let dialect = self.dialect
            let now = DemoClock.iso8601(DemoClock.now())
            let response: String? = conversation.withLock { state in
                guard let message = state.proactive.message(id: body.proactive_id, in: dialect) else { return nil }
                let response = ChatScript.reply(to: body.text, messageID: message.number)
                state.replies.append(DemoBackend.ReceivedReply(proactiveID: body.proactive_id, text: body.text))
                state.history.append(role: "user", content: body.text, source: "proactive_reply", at: now)
                state.history.append(role: "assistant", content: response, source: "proactive_reply", at: now)
                return response
            }
            guard let response else { return .json(DemoAPI.ReplyAnswer(ok: false, error: "no proactive message \(body.proactive_id)")) }
            return .json(DemoAPI.ReplyAnswer(ok: true, response: response))
        }
    }

    /// `GET /api/history` (v2): `{"messages": [...]}`, the last 120 turns, oldest first.
    func history() -> HTTPReply {
        struct Reply: Encodable { var messages: [DemoAPI.HistoryMessage] }
        return .json(Reply(messages: conversation.withLock { $0.history.messages }))
    }

    /// `POST /api/episode_day` (v2): records one piece of listening evidence, in order; an event id
    /// seen before is taken again (`"duplicate": true`) but not recorded twice. A malformed event
    /// is 400 with `retryable: false`; `episodeDayFault` answers otherwise and records nothing.
    func recordEpisodeDay(_ request: HTTPRequest) -> HTTPReply {
        let event: DemoAPI.EpisodeDayEvent
        do {
            event = try decodeBody(DemoAPI.EpisodeDayEvent.self, from: request)
        } catch {
            return .json(DemoAPI.EpisodeDayAnswer(ok: false, error: error.message, retryable: false), status: error.status)
        }
        switch conversation.withLock({ $0.episodeDayFault }) {
        case .unavailable?: return .error(503, "the demo backend is restarting (DemoBackend.EpisodeDayFault.unavailable)")
        case .retryLater?: return .json(DemoAPI.EpisodeDayAnswer(ok: false, error: "busy: try again later", retryable: true))
        case .refuse?: return .json(DemoAPI.EpisodeDayAnswer(ok: false, error: "refused (DemoBackend.EpisodeDayFault.refuse)", retryable: false))
        case nil: break
        }
        let record: DemoBackend.EpisodeDayRecord
        switch Self.record(of: event) {
        case .failure(let problem):
            return .json(DemoAPI.EpisodeDayAnswer(ok: false, error: problem.message, retryable: false), status: 400)
        case .success(let valid): record = valid
        }
        let isNew = conversation.withLock { $0.episodeDay.record(record) }
        return .json(DemoAPI.EpisodeDayAnswer(ok: true, duplicate: isNew ? nil : true))
    }

    /// `GET /api/episode_day[?day=YYYY-MM-DD]` (v2): the day and the latest playback, from the last
    /// `playing` or `progress` event recorded.
    func episodeDayFrame(_ request: HTTPRequest) -> HTTPReply {
        if let day = request.query["day"], !Self.isDay(day) {
            return .error(400, "day must be YYYY-MM-DD, not \(day)")
        }
        let (latest, count) = conversation.withLock { ($0.episodeDay.latestPlayback, $0.episodeDay.events.count) }
        let day = request.query["day"] ?? latest.map { String($0.observedAt.prefix(10)) } ?? DemoReadings.briefingDay
        let playback = latest.map { DemoAPI.EpisodeDayFrame.Playback(episode_id: $0.episodeID, observed_at: $0.observedAt) }
        return .json(DemoAPI.EpisodeDayFrame(day: day, latest_playback: playback, events: count))
    }

    /// An event's fields as recorded, or what is wrong with them.
    private static func record(of event: DemoAPI.EpisodeDayEvent) -> Result<DemoBackend.EpisodeDayRecord, DemoBackendError> {
        guard let action = event.action, ["selected", "playing", "progress", "finished"].contains(action) else {
            return .failure(DemoBackendError("action must be selected, playing, progress or finished, not \(event.action ?? "none")"))
        }
        guard let episode = event.episode_id, !episode.isEmpty else { return .failure(DemoBackendError("episode_id is missing")) }
        guard let eventID = event.event_id, !eventID.isEmpty else { return .failure(DemoBackendError("event_id is missing")) }
        guard let observed = event.observed_at, isDay(String(observed.prefix(10))), observed.count >= 20 else {
            return .failure(DemoBackendError("observed_at must be an ISO 8601 time, not \(event.observed_at ?? "none")"))
        }
        return .success(DemoBackend.EpisodeDayRecord(action: action, episodeID: episode, eventID: eventID, observedAt: observed,
                                                     positionMS: event.position_ms ?? 0, playedMS: event.played_ms ?? 0, title: event.title))
    }

    /// `YYYY-MM-DD`, digits where digits go.
    private static func isDay(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.count == 10 && bytes.enumerated().allSatisfy { index, byte in
            index == 4 || index == 7 ? byte == UInt8(ascii: "-") : (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
    }
}
