/// Reading values as the control socket, `ctl` and the property table take them: leniently, as
/// mpv does (a number may come as a string, a flag as "yes").
extension JSONValue {
    /// A number, or a string holding one (`ctl` and text command lines send their arguments as
    /// strings, as mpv accepts them).
    package var numberValue: Double? {
        switch self {
        case .number(let number): return number.isFinite ? number : nil
        case .string(let text): return Double(text.trimmingSpaces).flatMap { $0.isFinite ? $0 : nil }
        default: return nil
        }
    }

    /// A number (or a string holding one) as an integer, its fraction dropped as `Int(_:)` drops
    /// it; nil past ±2^53, where a double holds no exact integer (and `Int(_:)` would trap beyond
    /// `Int.max`: `["playlist-play-index", 1e300]` once ended the player).
    package var integerValue: Int? {
        guard let number = numberValue, abs(number) < 9_007_199_254_740_992 else { return nil }
        return Int(number)
    }

    /// A flag: true/false, or mpv's "yes"/"no" as strings.
    package var flagValue: Bool? {
        switch self {
        case .bool(let flag): return flag
        case .string("yes"), .string("true"): return true
        case .string("no"), .string("false"): return false
        default: return nil
        }
    }

    package var stringValue: String? {
        switch self {
        case .string(let text): return text
        case .number(let number): return number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        default: return nil
        }
    }

    package static func string(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }

    /// An object's member.
    package subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }
}

extension String {
    /// Without leading and trailing spaces.
    package var trimmingSpaces: Substring {
        let start = firstIndex { $0 != " " } ?? endIndex
        let end = lastIndex { $0 != " " }.map { index(after: $0) } ?? start
        return self[start..<max(start, end)]
    }
}
