import Foundation

/// A minimal HTTP/1.0 client for the harness's own checks of its servers (readiness, status pages):
/// one request per connection, the whole response read until the server closes.
public enum LoopbackHTTP {
    public struct Response: Sendable {
        public let status: Int
        /// Header names lowercased; the last value wins.
        public let headers: [String: String]
        public let body: [UInt8]
    }

    /// `GET path` from 127.0.0.1:`port` with extra request headers (e.g. `["Range": "bytes=0-99"]`).
    public static func get(port: Int, path: String, headers: [String: String] = [:]) throws -> Response {
        guard let fd = LoopbackPort.connect(port: port) else {
            throw HarnessError("cannot connect to 127.0.0.1:\(port)")
        }
        defer { close(fd) }
        var request = "GET \(path) HTTP/1.0\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers {
            request += "\(name): \(value)\r\n"
        }
        request += "\r\n"
        let requestBytes = Array(request.utf8)
        var sent = 0
        while sent < requestBytes.count {
            let count = requestBytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else {
                throw HarnessError("sending to 127.0.0.1:\(port) failed: \(String(cString: strerror(errno)))")
            }
            sent += count
        }
        var response: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count == 0 { break }
            guard count > 0 else {
                if errno == EINTR { continue }
                throw HarnessError("reading from 127.0.0.1:\(port) failed: \(String(cString: strerror(errno)))")
            }
            response.append(contentsOf: chunk[0..<count])
        }
        return try parse(response, from: "127.0.0.1:\(port)\(path)")
    }

    /// ``get(port:path:headers:)`` on a Dispatch worker, so that a slow answer does not hold one of
    /// the few Swift concurrency threads.
    public static func get(port: Int, path: String, headers: [String: String] = [:]) async throws -> Response {
        try await BlockingWork.run { try get(port: port, path: path, headers: headers) }
    }

    private static func parse(_ response: [UInt8], from origin: String) throws -> Response {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard let headerEnd = response.firstRange(of: separator) else {
            throw HarnessError("no HTTP header in the \(response.count)-byte answer from \(origin)")
        }
        let headerText = String(decoding: response[..<headerEnd.lowerBound], as: UTF8.self)
        var lines = headerText.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, let status = Int(parts[1]) else {
            throw HarnessError("bad HTTP status line \(statusLine.debugDescription) from \(origin)")
        }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Response(status: status, headers: headers, body: Array(response[headerEnd.upperBound...]))
    }
}
