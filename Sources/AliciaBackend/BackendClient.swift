internal import AliciaJSON

/// Alicia's backend, as the phone app uses it (../shared/alicia-api.md).
/// Blocking calls on the caller's thread.
public final class BackendClient {
    public let configuration: BackendConfiguration
    private let http: HTTPClient

    public init(configuration: BackendConfiguration) throws(BackendError) {
        self.configuration = configuration
        http = try HTTPClient(hostAndPort: configuration.hostAndPort)
    }

    /// Ends the client's running request, and every later one, once it returns true (checked
    /// about once a second and as data arrives). For a front-end that quits while a request runs.
    public func cancel(when cancelled: @escaping @Sendable () -> Bool) {
        http.isCancelled = cancelled
    }

    /// Told the reply of `/api/tracks` and `/api/playlists` (endpoint, body) once it decoded: the
    /// offline library is kept from it.
    public var onLibraryReply: ((String, [UInt8]) -> Void)?

    /// `GET /api/tracks`.
    public func tracks() throws(BackendError) -> [Episode] {
        try libraryList("/api/tracks", decode: Self.decodeTracks)
    }

    /// A body of `/api/tracks` (as kept for offline use).
    public static func decodeTracks(_ body: [UInt8]) throws(BackendError) -> [Episode] {
        try decode([Episode].self, from: body, endpoint: "/api/tracks")
    }

    /// `GET /api/episode/<label>`: the show notes, as markdown.
    public func showNotes(label: String) throws(BackendError) -> String {
        struct Notes: Decodable { var label: String?; var markdown: String }
        let endpoint = "/api/episode/" + BackendConfiguration.percentEncodedQueryValue(label)
        return try decode(Notes.self, from: get(endpoint), endpoint: endpoint).markdown
    }

    /// The URL of a media path, token included: hand it to the player, never show it.
    public func mediaURL(for fileName: String) -> String {
        configuration.mediaURL(for: fileName)
    }

    func get(_ endpoint: String) throws(BackendError) -> [UInt8] {
        try http.request(configuration.apiURL(endpoint), endpoint: endpoint, bearer: configuration.token).body
    }

    func post(_ endpoint: String, body: [UInt8]) throws(BackendError) -> [UInt8] {
        try http.request(configuration.apiURL(endpoint), endpoint: endpoint, bearer: configuration.token, jsonBody: body).body
    }

    /// POSTs `json` encoded.
    func post<Body: Encodable>(_ endpoint: String, json: Body) throws(BackendError) -> [UInt8] {
        try post(endpoint, body: Self.requestBody(json, endpoint: endpoint))
    }

    /// POSTs an action encoded: as `post`, but a 4xx that gives the backend's words (`{"error": …}`)
    /// is thrown as its refusal (`BackendError.backend`), not as a bare status.
    func submit<Body: Encodable>(_ endpoint: String, json: Body) throws(BackendError) -> [UInt8] {
        let response = try exchange(endpoint, body: Self.requestBody(json, endpoint: endpoint))
        if let failure = response.failure { throw failure }
        if response.status == 401 { throw configuration.token == nil ? .noToken : .unauthorized }
        if response.status >= 400 {
            if response.status < 500, let words = (try? JSON.decode(BackendRefusal.self, from: response.body))?.error, !words.isEmpty {
                throw .backend(endpoint: endpoint, message: words)
            }
            throw .httpStatus(response.status, endpoint: endpoint)
        }
        return response.body
    }

    /// A request's JSON body: the one place one is made.
    static func requestBody<Body: Encodable>(_ json: Body, endpoint: String) throws(BackendError) -> [UInt8] {
        do {
            return try JSON.encode(json)
        } catch {
            throw .badReply(endpoint: endpoint, detail: "cannot encode the request")
        }
    }

    /// GETs one of the library's lists (`/api/tracks`, `/api/playlists`), decoded by `decode`, and
    /// tells `onLibraryReply` the body once it decoded.
    func libraryList<T>(_ endpoint: String, decode: ([UInt8]) throws(BackendError) -> T) throws(BackendError) -> T {
        let body = try get(endpoint)
        let list = try decode(body)
        onLibraryReply?(endpoint, body)
        return list
    }

    /// POSTs `body` (or GETs, when it is nil) and returns any status with its body, and a failure
    /// met once the status was in (`HTTPClient.exchange`); `onChunk` sees a 2xx body as it
    /// arrives and returns false to end it early.
    func exchange(_ endpoint: String, body: [UInt8]?, onChunk: ((UnsafeRawBufferPointer) -> Bool)? = nil) throws(BackendError) -> HTTPResponse {
        try http.exchange(configuration.apiURL(endpoint), endpoint: endpoint, bearer: configuration.token, jsonBody: body, onChunk: onChunk)
    }

    func decode<T: Decodable>(_ type: T.Type, from body: [UInt8], endpoint: String) throws(BackendError) -> T {
        try Self.decode(type, from: body, endpoint: endpoint)
    }

    static func decode<T: Decodable>(_ type: T.Type, from body: [UInt8], endpoint: String) throws(BackendError) -> T {
        do {
            return try JSON.decode(T.self, from: body)
        } catch {
            throw .badReply(endpoint: endpoint, detail: Self.describe(error))
        }
    }

    /// A decoding failure in one short phrase: what was wrong, and where.
    static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
            return keys.isEmpty ? "at the top" : "at \(keys)"
        }
        switch error {
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "not JSON" : "bad value \(path(context))"
        case .keyNotFound(let key, let context):
            return "\"\(key.stringValue)\" is missing \(path(context))"
        case .typeMismatch(let type, let context):
            return "expected \(Self.name(type)) \(path(context))"
        case .valueNotFound(let type, let context):
            return "expected \(Self.name(type)) \(path(context)), found null"
        @unknown default:
            return "unexpected shape"
        }
    }

    private static func name(_ type: Any.Type) -> String {
        let text = String(describing: type)
        if text.hasPrefix("Array") { return "a list" }
        if text.hasPrefix("Dictionary") || text.contains("Keyed") { return "an object" }
        if text == "String" { return "a string" }
        if text == "Double" || text == "Int" { return "a number" }
        if text == "Bool" { return "true or false" }
        return text
    }
}

/// A refusal's body, `{"error": …}` (other fields ignored).
struct BackendRefusal: Decodable {
    var error: String?
}
