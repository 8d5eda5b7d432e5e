extension DemoBackend {
    /// Misbehaviour to inject, all off by default.
    public struct Faults: Sendable, Equatable {
        /// Audio bodies: send this many body bytes, then drop the connection.
        public var closeAfterBodyBytes: Int?
        /// Audio bodies: send at most this many bytes per second.
        public var bytesPerSecond: Int?
        /// Audio: answer every request 200 with the whole file, as a server without Range support.
        public var ignoreRange: Bool
        /// Audio: the files as changed on the server this many times. Their Last-Modified date moves
        /// on by a day each and their sample bytes differ (XORed with the revision), so a download
        /// begun on another revision must start over.
        public var mediaRevision: UInt8
        /// 0…1: this share of the authorised requests to known endpoints answers 500.
        public var failureRate: Double
        /// Picks which requests fail: the same seed fails the same requests of a run.
        public var failureSeed: UInt64
        /// The pause between chat tokens.
        public var chatTokenDelay: Duration
        /// The pause before the first chat token, as while a reply is being thought of.
        public var chatStartDelay: Duration
        /// How `/api/speak` voices a text it does not know in time (nil: over three asks,
        /// `rendering`, `streaming`, `ready`).
        public var voicing: Voicing?
        /// How `/api/chat` ends (nil: with `done`).
        public var chat: ChatFault?

        public init(
            closeAfterBodyBytes: Int? = nil,
            bytesPerSecond: Int? = nil,
            ignoreRange: Bool = false,
            mediaRevision: UInt8 = 0,
            failureRate: Double = 0,
            failureSeed: UInt64 = 1,
            chatTokenDelay: Duration = .milliseconds(30),
            chatStartDelay: Duration = .zero,
            voicing: Voicing? = nil,
            chat: ChatFault? = nil
        ) {
            self.closeAfterBodyBytes = closeAfterBodyBytes
            self.bytesPerSecond = bytesPerSecond
            self.ignoreRange = ignoreRange
            self.mediaRevision = mediaRevision
            self.failureRate = failureRate
            self.failureSeed = failureSeed
            self.chatTokenDelay = chatTokenDelay
            self.chatStartDelay = chatStartDelay
            self.voicing = voicing
            self.chat = chat
        }

        func validate() throws(DemoBackendError) {
            if let bytes = closeAfterBodyBytes, bytes < 0 {
                throw DemoBackendError("closeAfterBodyBytes must be 0 or more, not \(bytes)")
            }
            if let rate = bytesPerSecond, rate <= 0 {
                throw DemoBackendError("bytesPerSecond must be positive, not \(rate)")
            }
            guard (0...1).contains(failureRate) else {
                throw DemoBackendError("failureRate must be within 0...1, not \(failureRate)")
            }
            guard chatTokenDelay >= .zero, chatStartDelay >= .zero else {
                throw DemoBackendError("chat delays must not be negative")
            }
            try voicing?.validate()
            try chat?.validate()
        }
    }

    /// A chat reply that does not end well, for the client's failure paths.
    public enum ChatFault: Sendable, Equatable {
        /// This many tokens, then `{"error": message}`. In v2 that ends the stream; in v1 `done`
        /// follows, as an older backend did.
        case errorEvent(afterTokens: Int, message: String)
        /// This many tokens, then the stream closes without `done`.
        case cutShort(afterTokens: Int)
        /// The message is answered with this HTTP status and `{"error": message}`: no stream.
        case status(Int, message: String)

        func validate() throws(DemoBackendError) {
            switch self {
            case .errorEvent(let count, _), .cutShort(let count):
                guard count >= 0 else { throw DemoBackendError("a chat fault's token count must be 0 or more, not \(count)") }
            case .status(let status, _):
                guard (400...599).contains(status) else { throw DemoBackendError("a chat fault's status must be 400…599, not \(status)") }
            }
        }
    }
}

extension DemoBackend {
    /// A voice that renders in time: `/api/speak` answers `rendering` until the first chunk is
    /// voiced, `streaming` with the chunks voiced so far, then `ready` once the last one is (or
    /// `failed` where `failAfter` says), each chunk voiced `chunkDelays[n]` after the text was
    /// first asked for. Faster than playback (chunks voiced before the one before them has played
    /// out) or slower (the player waits in silence), as the test or the demo wants.
    public struct Voicing: Sendable, Equatable {
        /// When each chunk is voiced, from the first ask; as many chunks as delays (1…16).
        public var chunkDelays: [Duration]
        /// The voicing fails after this many chunks (when the next one would have come).
        public var failAfter: Int?

        public init(chunkDelays: [Duration], failAfter: Int? = nil) {
            self.chunkDelays = chunkDelays
            self.failAfter = failAfter
        }

        /// `count` chunks, one every `every`, the first after `first`.
        public static func steady(count: Int, first: Duration, every: Duration) -> Voicing {
            Voicing(chunkDelays: (0..<count).map { first + every * $0 })
        }

        func validate() throws(DemoBackendError) {
            guard (1...16).contains(chunkDelays.count) else {
                throw DemoBackendError("voicing needs 1 to 16 chunk delays, not \(chunkDelays.count)")
            }
            guard chunkDelays.allSatisfy({ $0 >= .zero }), zip(chunkDelays, chunkDelays.dropFirst()).allSatisfy({ $0 <= $1 }) else {
                throw DemoBackendError("voicing's chunk delays must be 0 or more and in order")
            }
            if let failAfter, !(0..<chunkDelays.count).contains(failAfter) {
                throw DemoBackendError("voicing's failAfter must be under the chunk count, not \(failAfter)")
            }
        }

        /// What is voiced `elapsed` after the first ask: how many chunks, and whether it failed.
        public func voiced(after elapsed: Duration) -> (chunks: Int, failed: Bool) {
            let count = chunkDelays.filter { $0 <= elapsed }.count
            if let failAfter, count > failAfter { return (failAfter, true) }
            return (count, false)
        }
    }
}
