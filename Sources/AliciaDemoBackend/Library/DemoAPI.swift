/// The JSON shapes of Alicia's API (see alicia-api.md), as the demo backend writes and reads them
/// (a track is its `DemoEpisode`, encoded).
enum DemoAPI {
    /// An entry of `GET /api/proactive`.
    struct ProactiveMessage: Codable, Sendable {
        var id: Int
        /// ISO 8601, UTC.
        var date: String
        var text: String
        var kind: String
        var archetype: String
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

    /// `POST /api/chat`'s body.
    struct ChatRequest: Decodable, Sendable {
        var text: String
        var voice: Bool?
    }

    /// `POST /api/react`'s body.
    struct Reaction: Decodable, Sendable {
        var messageID: Int
        var emoji: String

        enum CodingKeys: String, CodingKey {
            case messageID = "message_id"
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
        case error(String)
        case done(messageID: Int)

        private enum CodingKeys: String, CodingKey {
            case t, voice, error, done
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
            case .done(let messageID):
                try container.encode(true, forKey: .done)
                try container.encode(messageID, forKey: .messageID)
            }
        }
    }
}
