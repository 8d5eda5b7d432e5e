extension DemoBackend {
    /// Which form of Alicia's API the backend speaks (alicia-api.md): the older one, or Alicia 2.0.
    public enum Dialect: String, Sendable, Equatable, CaseIterable {
        /// Number ids, no `is_ask`, no `reply_id`; an `error` event is followed by `done`; none of
        /// 2.0's new endpoints (they are 404, as on an older backend).
        case v1
        /// Alicia 2.0: text proactive ids (`"pm-318"`) with `is_ask`, `reply_id` in chat streams,
        /// `/api/reply`, `/api/react` with `proactive_id`, `/api/morning_briefing`, `/api/syntheses`,
        /// `/api/reflections`, `/api/history`, `/api/episode_day`, `/api/speak` with text and word cues.
        case v2
    }

    /// Absolute media URLs on another host, as playlist episodes added from the phone come back in
    /// Alicia 2.0: `<base>/api/audio/…?token=<token>`. For testing a client's fallback to its own
    /// base URL (the default host is TEST-NET-1: nothing answers there).
    public struct ForeignMedia: Sendable, Equatable {
        /// `http(s)://host:port`, without a trailing slash.
        public var base: String
        /// The token the phone's URLs carry (not the backend's).
        public var token: String

        public init(base: String, token: String) {
            self.base = base
            self.token = token
        }

        /// `http://192.0.2.1:8766`, `phone-token`.
        public static let phone = ForeignMedia(base: "http://192.0.2.1:8766", token: "phone-token")

        /// `path` (a media path on this backend) as the phone's absolute URL.
        func absolute(_ path: String) -> String {
            guard path.hasPrefix("/") else { return path }
            return base + path + (path.contains("?") ? "&" : "?") + "token=" + token
        }
    }

    /// What `/api/morning_briefing` says (v2); changeable while the backend runs.
    public enum BriefingState: String, Sendable, Equatable {
        /// A briefing to play, its audio at `/api/morning_briefing/audio/<id>.wav` (WAV, with Range:
        /// the demo synthesizes WAV where the real backend serves M4A).
        case ready
        /// Being made: no audio yet.
        case preparing
        /// None today, with an `error` saying so.
        case unavailable
    }

    /// How `POST /api/episode_day` misbehaves (v2); changeable while the backend runs. Events are
    /// not recorded while one is set.
    public enum EpisodeDayFault: Sendable, Equatable {
        /// HTTP 503 with `{"error": …}`.
        case unavailable
        /// `{"ok": false, "error": …, "retryable": true}`.
        case retryLater
        /// `{"ok": false, "error": …, "retryable": false}`.
        case refuse
    }
}
