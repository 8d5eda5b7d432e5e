/// A stand-in for Alicia's backend on 127.0.0.1: the API of alicia-api.md over real HTTP/1.1
/// (keep-alive, Range, chunked event streams), served by libmicrohttpd, with synthesized audio and
/// switchable faults.
///
/// It serves from `init` until ``stop()`` (or until it is released). The `alicia-player demo` command
/// plays from it, and the tests of the backend client, the chat and fault handling talk to it. It
/// speaks Alicia 2.0 (``Dialect/v2``) or the older API (``Dialect/v1``); what 2.0's clients send it
/// (replies, reactions, listening evidence, chat request ids) can be read back
/// (`DemoBackend+Records.swift`), and some of it can be changed while it runs.
///
/// ```swift
/// let backend = try DemoBackend(token: DemoBackend.randomToken())
/// // GET \(backend.baseURL)/api/tracks with "Authorization: Bearer \(backend.token)"
/// ```
public final class DemoBackend: Sendable {
    /// The token clients must send: `Authorization: Bearer <token>` or `?token=<token>`.
    public let token: String
    /// The port on 127.0.0.1 (the kernel's choice when 0 was asked for).
    public let port: Int
    /// The faults this backend injects.
    public let faults: Faults
    /// Which form of the API it speaks.
    public let dialect: Dialect

    let service: DemoService
    private let daemon: MHDDaemon
    private let stopSignal: StopSignal

    /// Starts serving on 127.0.0.1:`port`; port 0 takes a free port. `dialect`: the older API or
    /// Alicia 2.0's; `foreignMedia`: playlist episodes' audio as the phone's absolute URLs.
    public init(token: String, port: Int = 0, faults: Faults = Faults(), dialect: Dialect = .v2,
                foreignMedia: ForeignMedia? = nil) throws(DemoBackendError) {
        guard !token.isEmpty else {
            throw DemoBackendError("the token must not be empty")
        }
        guard token.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw DemoBackendError("the token must be printable ASCII without spaces (it travels in a header)")
        }
        try faults.validate()
        let stopSignal = StopSignal()
        let service = DemoService(token: token, faults: faults, dialect: dialect, foreignMedia: foreignMedia, library: .standard,
                                  stopSignal: stopSignal)
        self.token = token
        self.faults = faults
        self.dialect = dialect
        self.stopSignal = stopSignal
        self.service = service
        daemon = try MHDDaemon(port: port, handler: service)
        self.port = daemon.port
    }

    /// `http://127.0.0.1:<port>`, without a trailing slash.
    public var baseURL: String {
        "http://127.0.0.1:\(port)"
    }

    /// Every request answered so far, oldest first (tokens redacted).
    public var requests: [LoggedRequest] {
        service.log.entries
    }

    /// When `/api/speak` was first asked for `text` under `Faults.voicing`: its chunks are voiced
    /// their delays after this.
    public func voicingStart(of text: String) -> ContinuousClock.Instant? {
        service.playlists.withLock { $0.voicingStart(of: text) }
    }

    /// The media path of chunk `index` of a text `/api/speak` voices (not the letter's).
    public static func spokenChunkPath(of text: String, index: Int) -> String {
        "/api/audio/chunk-spoken-\(text.utf8.count)-\(index).wav"
    }

    /// Stops serving: ends every delay and stream in progress, closes all connections and frees the
    /// port. Idempotent; also done when the backend is released.
    public func stop() {
        stopSignal.stop()
        daemon.stop()
    }

    deinit {
        stop()
    }

    /// 32 hex digits from the system's random generator.
    public static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef")
        return String((0..<32).map { _ in digits[Int(generator.next() % 16)] })
    }
}
