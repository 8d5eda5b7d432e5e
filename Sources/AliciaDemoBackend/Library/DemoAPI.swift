/// The JSON shapes of Alicia's API (see alicia-api.md), as the demo backend writes and reads them
/// (a track is its `DemoEpisode`, encoded).
enum DemoAPI {
    /// An id as the dialect writes it: a number (v1) or text (v2).
    enum WireID: Encodable, Sendable, Equatable {
        case number(Int)
        case text(String)

        func encode(to encoder: any Encoder) throws {
            var value = encoder.singleValueContainer()
            switch self {
            case .number(let number): try value.encode(number)
            case .text(let text): try value.encode(text)
            }
        }
    }

    /// An entry of `GET /api/proactive`.
    struct ProactiveMessage: Encodable, Sendable {
        var id: WireID
        /// ISO 8601, UTC.
        var date: String
        var text: String
        var kind: String
        var archetype: String
        /// v2 only.
        var isAsk: Bool?

        enum CodingKeys: String, CodingKey {
            case id, date, text, kind, archetype
            case isAsk = "is_ask"
        }
    }

    /// An entry of `GET /api/health`.
    struct Vital: Codable, Sendable {
        var name: String
        /// 0…1.
        var value: Double
        var display: String
        var symbol: String
        /// 0…1, for the app's colour.
        var hue: Double
    }

    /// `GET /api/episode/<label>`.
    struct EpisodeNotes: Codable, Sendable {
        var label: String
        var markdown: String
    }

    /// `POST /api/chat`'s body (`request_id`: Alicia 2.0's clients send one).
    struct ChatRequest: Decodable, Sendable {
        var text: String
        var voice: Bool?
        var request_id: String?
    }

    /// `POST /api/react`'s body: `message_id` (a number), or in v2 `proactive_id` (text) instead.
    struct Reaction: Decodable, Sendable {
        var messageID: Int?
        var proactiveID: String?
        var emoji: String

        enum CodingKeys: String, CodingKey {
            case messageID = "message_id"
            case proactiveID = "proactive_id"
            case emoji
        }
    }

    /// `{"ok": true}`.
    struct Acknowledgement: Encodable, Sendable {
        var ok = true
    }

    /// The JSON of one chat stream event (`data: <json>`).
    enum ChatEvent: Encodable, Sendable {
        case token(String)
        case voice(path: String)
        /// v2: the saved reply's id.
        case replyID(String)
        case error(String)
        /// `health` (v2) is a few vitals beside the end, which clients may ignore.
        case done(messageID: Int, health: [String: Double]? = nil)

        private enum CodingKeys: String, CodingKey {
            case t, voice, error, done, health
            case replyID = "reply_id"
            case messageID = "message_id"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            switch self {
            case .token(let text):
                try container.encode(text, forKey: .t)
            case .voice(let path):
                try container.encode(path, forKey: .voice)
            case .error(let message):
                try container.encode(message, forKey: .error)
            case .replyID(let id):
                try container.encode(id, forKey: .replyID)
            case .done(let messageID, let health):
                try container.encode(true, forKey: .done)
                try container.encode(messageID, forKey: .messageID)
                try container.encodeIfPresent(health, forKey: .health)
            }
        }
    }
}
