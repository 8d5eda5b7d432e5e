/// A `Range` header resolved against a body of known length, as RFC 9110 §14 has a server do it.
///
/// Only the first satisfiable range of a multi-range request is served (a single-part 206, which the
/// RFC allows); a header that is not a valid `bytes` range set is ignored.
package enum ByteRangeRequest: Equatable {
    /// No Range, or one to ignore: 200 with the whole body.
    case whole
    /// 206 with these bytes.
    case partial(ClosedRange<Int>)
    /// 416: no range overlaps the body.
    case unsatisfiable

    package init(header: String?, length: Int) {
        guard let header else {
            self = .whole
            return
        }
        let trimmed = header.trimmingSpaces
        guard let equals = trimmed.firstIndex(of: "="), trimmed[..<equals].trimmingSpaces.lowercased() == "bytes" else {
            self = .whole
            return
        }
        let specs = trimmed[trimmed.index(after: equals)...].split(separator: ",")
        var first: ClosedRange<Int>?
        for spec in specs {
            guard let range = Self.parse(spec.trimmingSpaces) else {
                self = .whole
                return
            }
            if first == nil {
                first = range.resolved(length: length)
            }
        }
        if let first {
            self = .partial(first)
        } else {
            // An empty set ("bytes=") is not a valid header; valid ranges that all miss are a 416.
            self = specs.isEmpty ? .whole : .unsatisfiable
        }
    }

    /// One range spec as written: `a-b`, `a-` or `-n`.
    private enum Spec {
        case from(Int, to: Int?)
        case suffix(Int)

        func resolved(length: Int) -> ClosedRange<Int>? {
            switch self {
            case .from(let first, let last):
                guard first < length else { return nil }
                return first...min(last ?? length - 1, length - 1)
            case .suffix(let count):
                guard count > 0, length > 0 else { return nil }
                return max(0, length - count)...length - 1
            }
        }
    }

    private static func parse(_ spec: Substring) -> Spec? {
        guard let dash = spec.firstIndex(of: "-") else { return nil }
        let before = spec[..<dash]
        let after = spec[spec.index(after: dash)...]
        if before.isEmpty {
            guard let count = number(after) else { return nil }
            return .suffix(count)
        }
        guard let first = number(before) else { return nil }
        if after.isEmpty {
            return .from(first, to: nil)
        }
        guard let last = number(after), last >= first else { return nil }
        return .from(first, to: last)
    }

    /// Decimal digits only; beyond `Int.max` it saturates (such a position is past any body).
    private static func number(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text) ?? Int.max
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs (HTTP's optional whitespace).
    fileprivate var trimmingSpaces: SubSequence {
        var start = startIndex
        var end = endIndex
        while start < end, self[start] == " " || self[start] == "\t" {
            formIndex(after: &start)
        }
        while end > start, self[index(before: end)] == " " || self[index(before: end)] == "\t" {
            formIndex(before: &end)
        }
        return self[start..<end]
    }
}
