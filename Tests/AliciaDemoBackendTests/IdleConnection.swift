import AliciaTestSupport
import Foundation

/// A raw TCP connection to 127.0.0.1 that sends one request, reads its answer and then stays open
/// and idle, as an HTTP client's keep-alive connection does between requests; or reads a streamed
/// answer as far as a marker, to see what has arrived before what the server holds back.
final class IdleConnection {
    private let fd: Int32
    /// The answer as text (headers and body up to what the first read returned).
    let response: String
    /// Everything received so far, `response` first.
    private var received: [UInt8]

    /// How long a read waits for the next bytes: a hang guard, not a figure the server must meet.
    static let readTimeout = 30

    init(port: Int, request: String) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket() failed") }
        self.fd = fd
        var timeout = timeval(tv_sec: Self.readTimeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port)).bigEndian
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            Glibc.close(fd)
            throw HarnessError("cannot connect to 127.0.0.1:\(port)")
        }
        let bytes = Array(request.utf8)
        guard send(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else {
            Glibc.close(fd)
            throw HarnessError("cannot send the request")
        }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = recv(fd, &buffer, buffer.count, 0)
        received = count > 0 ? Array(buffer[0..<count]) : []
        response = String(decoding: received, as: UTF8.self)
    }

    /// `POST /api/chat` with `text`, authorised by `token`.
    static func chatRequest(token: String, text: String) -> String {
        let body = #"{"text":"\#(text)"}"#
        return "POST /api/chat HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
    }

    /// Reads until what has been received contains `marker` (or the peer closes, or nothing comes
    /// for ``readTimeout`` seconds); returns all of it as text, the first answer included.
    func read(until marker: String) -> String {
        var text = String(decoding: received, as: UTF8.self)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !text.contains(marker) {
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            received += buffer[0..<count]
            text = String(decoding: received, as: UTF8.self)
        }
        return text
    }

    /// True when the peer has closed the connection: a read returns end of file (or a reset).
    func isClosedByPeer() -> Bool {
        var byte: UInt8 = 0
        let count = recv(fd, &byte, 1, 0)
        return count == 0 || (count < 0 && errno == ECONNRESET)
    }

    func close() {
        Glibc.close(fd)
    }
}
