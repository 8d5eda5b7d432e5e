extension DemoBackend {
    /// A body `POST /api/reply` took.
    public struct ReceivedReply: Sendable, Equatable {
        /// The `proactive_id`, as text.
        public var proactiveID: String
        public var text: String

        public init(proactiveID: String, text: String) {
            self.proactiveID = proactiveID
            self.text = text
        }
    }

    /// A reaction `POST /api/react` took: to a chat message (`message_id`, a number) or to a
    /// proactive message (`proactive_id`, text).
    public struct ReceivedReaction: Sendable, Equatable {
        public var messageID: Int?
        public var proactiveID: String?
        public var emoji: String

        public init(messageID: Int? = nil, proactiveID: String? = nil, emoji: String) {
            self.messageID = messageID
            self.proactiveID = proactiveID
            self.emoji = emoji
        }
    }

    /// An event `POST /api/episode_day` recorded, as it came.
    public struct EpisodeDayRecord: Sendable, Equatable {
        public var action: String
        public var episodeID: String
        public var eventID: String
        public var observedAt: String
        public var positionMS: Int
        public var playedMS: Int
        public var title: String?
    }

    /// Adds a proactive message at the top of `/api/proactive` while the backend runs, dated now;
    /// returns its id as the dialect writes it (`"pm-319"` in v2, `"319"` in v1).
    @discardableResult
    public func addProactive(text: String, isAsk: Bool = false) -> String {
        let date = DemoClock.iso8601(DemoClock.now())
        return service.conversation.withLock { state in
            let message = state.proactive.add(text: text, isAsk: isAsk, date: date)
            return ProactiveFeed.id(of: message, in: service.dialect)
        }
    }

    /// Every `/api/reply` body taken so far, oldest first.
    public var replies: [ReceivedReply] {
        service.conversation.withLock { $0.replies }
    }

    /// Every `/api/react` body taken so far, oldest first.
    public var reactions: [ReceivedReaction] {
        service.conversation.withLock { $0.reactions }
    }

    /// Every `/api/episode_day` event recorded, in the order received (a duplicate `event_id` once).
    public var episodeDayEvents: [EpisodeDayRecord] {
        service.conversation.withLock { $0.episodeDay.events }
    }

    /// What `/api/morning_briefing` says (v2); `.ready` at the start.
    public var briefingState: BriefingState {
        get { service.conversation.withLock { $0.briefing } }
        set { service.conversation.withLock { $0.briefing = newValue } }
    }

    /// How `POST /api/episode_day` misbehaves (v2); none at the start.
    public var episodeDayFault: EpisodeDayFault? {
        get { service.conversation.withLock { $0.episodeDayFault } }
        set { service.conversation.withLock { $0.episodeDayFault = newValue } }
    }
}
