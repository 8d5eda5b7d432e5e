/// The JSON shapes of Alicia 2.0's endpoints (alicia-api.md, "Alicia 2.0"), as the demo writes and
/// reads them.
extension DemoAPI {
    /// One word's timing in a chunk: seconds within the chunk; characters (Unicode scalars, as
    /// Python counts them) within the piece's `spoken_text`.
    struct Cue: Codable, Sendable, Equatable {
        var start: Double
        var end: Double
        var text: String
        var start_char: Int
        var end_char: Int
    }

    /// A reading made beforehand or as far as it is made: a synthesis's, a reflection's, the
    /// briefing's `speech`.
    struct Reading: Encodable, Sendable {
        var status: String?
        var chunks: [DemoPlaylists.Chunk]
        var duration: Double
        var spoken_text: String?
        var timing_status: String?
    }

    /// `GET /api/morning_briefing`; what is absent for the state is left out.
    struct MorningBriefing: Encodable, Sendable {
        struct Source: Encodable, Sendable {
            var id: String
            var title: String
            var path: String
            var excerpt: String
        }

        var id: String?
        var day: String
        var title: String?
        var text: String?
        var status: String
        var audio_url: String?
        var duration: Double?
        var playlist_id: String?
        var error: String?
        var sources: [Source]
        var speech: Reading?
    }

    /// An entry of `GET /api/syntheses`.
    struct Synthesis: Encodable, Sendable {
        var title: String
        var date: String
        var excerpt: String
        var body: String
        var speech: Reading?
    }

    /// An entry of `GET /api/reflections`.
    struct Reflection: Encodable, Sendable {
        var id: String
        var kind: String
        var date: String
        var text: String
        var speech: Reading
    }

    /// A turn of `GET /api/history`.
    struct HistoryMessage: Encodable, Sendable {
        var id: String
        var ts: String
        var role: String
        var content: String
        var source: String
        var reply_id: String?
    }

    /// `POST /api/reply`'s body; `proactive_id` is text (a number is refused, as the contract has it).
    struct ReplyRequest: Decodable, Sendable {
        var proactive_id: String
        var text: String
    }

    /// `POST /api/reply`'s answer.
    struct ReplyAnswer: Encodable, Sendable {
        var ok: Bool
        var response: String?
        var error: String?
    }

    /// `POST /api/episode_day`'s body; what is missing or wrong is said in the answer.
    struct EpisodeDayEvent: Decodable, Sendable {
        var action: String?
        var episode_id: String?
        var event_id: String?
        var observed_at: String?
        var position_ms: Int?
        var played_ms: Int?
        var title: String?
    }

    /// `POST /api/episode_day`'s answer.
    struct EpisodeDayAnswer: Encodable, Sendable {
        var ok: Bool
        var error: String?
        var retryable: Bool?
        /// The event id was recorded before: taken again, not recorded twice.
        var duplicate: Bool?
    }

    /// `GET /api/episode_day`: the day's frame (the demo's is small).
    struct EpisodeDayFrame: Encodable, Sendable {
        struct Playback: Encodable, Sendable {
            var episode_id: String
            var observed_at: String
        }

        var day: String
        var latest_playback: Playback?
        /// How many events the demo recorded (a field clients ignore).
        var events: Int
    }
}
