/// A `Content-Range` header: `bytes 100-199/1000`, `bytes 100-199/*`, or in a 416 `bytes */1000`.
struct ByteRange: Equatable {
    var first: Int64?
    var last: Int64?
    var total: Int64?

    init(first: Int64?, last: Int64?, total: Int64?) {
        self.first = first
        self.last = last
        self.total = total
    }

    init?(_ header: String) {
        let text = header.trimmingSpaces()
        guard text.lowercased().hasPrefix("bytes "), let slash = text.lastIndex(of: "/") else { return nil }
        let range = String(text[text.index(text.startIndex, offsetBy: 6)..<slash]).trimmingSpaces()
        let totalText = String(text[text.index(after: slash)...]).trimmingSpaces()
        if totalText == "*" {
            total = nil
        } else if let value = Int64(totalText), value >= 0 {
            total = value
        } else {
            return nil
        }
        if range == "*" {
            guard total != nil else { return nil }
            return
        }
        let bounds = range.split(separator: "-", omittingEmptySubsequences: false)
        guard bounds.count == 2, let first = Int64(bounds[0]), let last = Int64(bounds[1]), first >= 0, last >= first else { return nil }
        if let total, last >= total { return nil }
        self.first = first
        self.last = last
    }
}
