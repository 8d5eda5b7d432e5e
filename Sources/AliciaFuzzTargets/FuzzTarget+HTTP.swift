import AliciaCurl
import AliciaDemoBackend

extension FuzzTarget {
    /// The headers read from answers (`Content-Range`) and, in the demo backend, from requests
    /// (`Range`, `If-Range` dates). Input: one header value a line.
    static let httpHeaders = FuzzTarget(name: "http-headers", about: "Content-Range, Range and HTTP-date parsing") { bytes in
        let lines = bytes.pieces(3).map(\.text)
        if let range = lines.first.flatMap(ContentRange.init) {
            if let first = range.first, let last = range.last {
                precondition(first >= 0 && first <= last, "ContentRange: bytes \(first)-\(last)")
                if let total = range.total { precondition(last < total, "ContentRange: byte \(last) of \(total)") }
                let again = ContentRange("bytes \(first)-\(last)/\(range.total.map(String.init) ?? "*")")
                precondition(again == range, "ContentRange does not read back")
            } else {
                precondition(range.first == nil && range.last == nil && range.total != nil, "ContentRange: an empty range needs a total")
            }
        }
        if lines.count > 1 {
            // The body's length from the header's own digits, so short and empty bodies are tried too.
            let length = lines[0].utf8.count
            switch ByteRangeRequest(header: lines[1], length: length) {
            case .partial(let range):
                precondition(range.lowerBound >= 0 && range.upperBound < length, "ByteRangeRequest: \(range) of \(length) bytes")
            case .whole, .unsatisfiable:
                break
            }
        }
        if lines.count > 2, let seconds = HTTPDate.parse(lines[2]), (0...253_402_300_799).contains(seconds) {
            precondition(HTTPDate.parse(HTTPDate.format(seconds)) == seconds, "HTTPDate does not read back")
        }
    }
}
