internal import AliciaJSON

/// What the service answers to one request; the daemon turns it into a libmicrohttpd response.
///
/// Content-Length (or chunked encoding, for a stream of unknown length) is the daemon's business:
/// it is never among `headers`.
struct HTTPReply {
    enum Body {
        /// A small body held in memory.
        case bytes([UInt8])
        /// A body produced piece by piece on the connection's thread; `length` nil makes it chunked.
        case stream(length: Int?, producer: any BodyProducer)
    }

    var status: Int
    var headers: [(name: String, value: String)] = []
    var body: Body

    /// `value` as a JSON body (keys sorted, slashes unescaped so media paths read as they are).
    static func json(_ value: some Encodable, status: Int = 200) -> HTTPReply {
        do {
            return HTTPReply(status: status, headers: [jsonContentType], body: .bytes(try JSON.encode(value)))
        } catch {
            // Our own reply types always encode; if one ever does not, say so instead of crashing.
            let text = #"{"error":"the demo backend could not encode its reply"}"#
            return HTTPReply(status: 500, headers: [jsonContentType], body: .bytes(Array(text.utf8)))
        }
    }

    /// `{"error": message}` with `status`.
    static func error(_ status: Int, _ message: String, headers: [(name: String, value: String)] = []) -> HTTPReply {
        var reply = json(ErrorBody(error: message), status: status)
        reply.headers += headers
        return reply
    }

    private static let jsonContentType = (name: "Content-Type", value: "application/json; charset=utf-8")

    private struct ErrorBody: Encodable {
        let error: String
    }
}
