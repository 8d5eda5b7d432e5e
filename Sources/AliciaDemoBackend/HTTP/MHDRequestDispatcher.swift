internal import CMicroHTTPD

/// Answers complete requests on the daemon's connection threads.
protocol HTTPRequestHandler: AnyObject, Sendable {
    func reply(to request: HTTPRequest) -> HTTPReply
}

/// The Swift side of ``MHDDaemon``'s callbacks: gathers each request (URI, headers, query, body)
/// over libmicrohttpd's calls, asks the handler for a reply and queues it.
///
/// A request's state lives in a ``PendingRequest`` retained in libmicrohttpd's per-request context
/// pointer: created by the URI logger (called once per request, before anything else) and released
/// by the completion callback (called for every request the URI logger saw).
final class MHDRequestDispatcher: Sendable {
    private let handler: any HTTPRequestHandler

    /// Bodies beyond this are cut and flagged; the API's bodies are a few hundred bytes.
    static let bodyLimit = 64 * 1024

    init(handler: any HTTPRequestHandler) {
        self.handler = handler
    }

    static func from(_ context: UnsafeMutableRawPointer?) -> MHDRequestDispatcher {
        guard let context else {
            preconditionFailure("MHDRequestDispatcher.from: libmicrohttpd passed no closure")
        }
        return Unmanaged<MHDRequestDispatcher>.fromOpaque(context).takeUnretainedValue()
    }

    /// URI logger: the request target as sent, before libmicrohttpd splits off the query.
    static func begin(uri: UnsafePointer<CChar>?) -> UnsafeMutableRawPointer? {
        let pending = PendingRequest(target: uri.map { String(cString: $0) } ?? "")
        return Unmanaged.passRetained(pending).toOpaque()
    }

    /// Completion callback: the request is over (answered, failed or abandoned).
    static func completed(requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?) {
        guard let requestContext, let raw = requestContext.pointee else { return }
        Unmanaged<PendingRequest>.fromOpaque(raw).release()
        requestContext.pointee = nil
    }

    /// Access handler. libmicrohttpd calls it once when the headers are in, once per piece of body,
    /// and once more with no data at the end, when we answer.
    func access(
        connection: OpaquePointer?,
        url: UnsafePointer<CChar>?,
        method: UnsafePointer<CChar>?,
        uploadData: UnsafePointer<CChar>?,
        uploadSize: UnsafeMutablePointer<Int>?,
        requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
    ) -> MHD_Result {
        guard let connection, let url, let method, let uploadSize, let requestContext else { return .NO }
        let pending: PendingRequest
        if let raw = requestContext.pointee {
            pending = Unmanaged<PendingRequest>.fromOpaque(raw).takeUnretainedValue()
        } else {
            // Not seen by the URI logger (should not happen): adopt it here, released the same way.
            pending = PendingRequest(target: String(cString: url))
            requestContext.pointee = Unmanaged.passRetained(pending).toOpaque()
        }
        if !pending.headersSeen {
            // Answering later lets libmicrohttpd send "100 Continue" and read the body first.
            pending.headersSeen = true
            return .YES
        }
        if uploadSize.pointee > 0 {
            pending.append(UnsafeRawBufferPointer(start: uploadData, count: uploadSize.pointee), limit: Self.bodyLimit)
            uploadSize.pointee = 0
            return .YES
        }
        let request = HTTPRequest(
            method: String(cString: method),
            path: String(cString: url),
            target: pending.target,
            headers: Self.values(of: connection, kind: .HEADER_KIND, lowercasingNames: true),
            query: Self.values(of: connection, kind: .GET_ARGUMENT_KIND, lowercasingNames: false),
            body: pending.body,
            bodyTruncated: pending.bodyTruncated
        )
        let reply = handler.reply(to: request)
        guard let response = MHDResponse(reply.body) else { return .NO }
        for header in reply.headers where !response.addHeader(header.name, header.value) {
            return .NO
        }
        return response.queue(on: connection, status: reply.status) ? .YES : .NO
    }

    /// Headers or query items of the current request; the first of a repeated name wins.
    ///
    /// Wraps `MHD_get_connection_values`.
    private static func values(of connection: OpaquePointer, kind: MHD_ValueKind, lowercasingNames: Bool) -> [String: String] {
        var collector = ValueCollector(lowercasingNames: lowercasingNames)
        withUnsafeMutablePointer(to: &collector) { pointer in
            _ = alicia_mhd_get_connection_values(
                connection,
                kind,
                { context, _, key, value in
                    guard let context, let key else { return .YES }
                    let collector = context.assumingMemoryBound(to: ValueCollector.self)
                    collector.pointee.add(String(cString: key), value.map { String(cString: $0) } ?? "")
                    return .YES
                },
                pointer
            )
        }
        return collector.values
    }

    private struct ValueCollector {
        let lowercasingNames: Bool
        var values: [String: String] = [:]

        mutating func add(_ name: String, _ value: String) {
            let key = lowercasingNames ? name.lowercased() : name
            if values[key] == nil {
                values[key] = value
            }
        }
    }
}

/// One request between libmicrohttpd's calls for it; touched only by its connection's thread.
private final class PendingRequest {
    let target: String
    var headersSeen = false
    var body: [UInt8] = []
    var bodyTruncated = false

    init(target: String) {
        self.target = target
    }

    func append(_ bytes: UnsafeRawBufferPointer, limit: Int) {
        let room = max(0, limit - body.count)
        if bytes.count > room {
            bodyTruncated = true
        }
        body.append(contentsOf: bytes.prefix(room))
    }
}
