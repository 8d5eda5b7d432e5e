/// A parsed `Content-Range` header (the engine's fetcher and the download cache read it): `bytes 100-199/1000`, `bytes 100-199/*`
/// or, in a 416 answer, `bytes */1000`.
package struct ContentRange: Equatable, Sendable {
    /// First and last byte of the body, when the answer carries a body.
    package var first: Int64?
    package var last: Int64?
    /// The whole resource's size, when the server knows it.
    package var total: Int64?

    package init(first: Int64?, last: Int64?, total: Int64?) {
        self.first = first
        self.last = last
        self.total = total
    }

    package init?(_ header: String) {
        let text = header.trimmingWhitespace()
        guard text.lowercased().hasPrefix("bytes"), let slash = text.lastIndex(of: "/") else { return nil }
        let range = text[text.index(text.startIndex, offsetBy: 5)..<slash].trimmingWhitespace()
        let totalText = text[text.index(after: slash)...].trimmingWhitespace()
        if totalText == "*" {
            total = nil
        } else if let value = Int64(totalText), value >= 0 {
            total = value
        } else {
            return nil
        }
        if range == "*" {
            guard total != nil else { return nil }
            first = nil
            last = nil
            return
        }
        let bounds = range.split(separator: "-", omittingEmptySubsequences: false)
        guard bounds.count == 2, let first = Int64(bounds[0]), let last = Int64(bounds[1]),
              first >= 0, last >= first else { return nil }
        if let total, last >= total { return nil }
        self.first = first
        self.last = last
    }
}

extension StringProtocol {
    fileprivate func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let end = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(String.UnicodeScalarView(scalars[start...end]))
    }
}
