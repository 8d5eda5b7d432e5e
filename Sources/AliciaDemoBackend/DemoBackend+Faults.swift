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

        public init(
            closeAfterBodyBytes: Int? = nil,
            bytesPerSecond: Int? = nil,
            ignoreRange: Bool = false,
            mediaRevision: UInt8 = 0,
            failureRate: Double = 0,
            failureSeed: UInt64 = 1,
            chatTokenDelay: Duration = .milliseconds(30),
            chatStartDelay: Duration = .zero
        ) {
            self.closeAfterBodyBytes = closeAfterBodyBytes
            self.bytesPerSecond = bytesPerSecond
            self.ignoreRange = ignoreRange
            self.mediaRevision = mediaRevision
            self.failureRate = failureRate
            self.failureSeed = failureSeed
            self.chatTokenDelay = chatTokenDelay
            self.chatStartDelay = chatStartDelay
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
        }
    }
}
