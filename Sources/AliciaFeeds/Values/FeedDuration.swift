/// `itunes:duration` as feeds write it: seconds (`3600`, `3600.5`), `M:S`, `H:M:S`, each with a
/// fraction on its last field (`1:02:03.250`). Fields past their usual range are added up as
/// written (`90:00` is an hour and a half, as Apple and AntennaPod read it). Anything else (a
/// negative number, words, four fields) is nil.
public enum FeedDuration {
    public static func seconds(_ text: String) -> Double? {
        let trimmed = text.trimmingSpaces
        guard !trimmed.isEmpty, trimmed.utf8.count <= 32 else { return nil }
        let fields = trimmed.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count <= 3, let last = fields.last, let lastValue = decimal(last) else { return nil }
        var total = lastValue
        for (position, field) in fields.dropLast().reversed().enumerated() {
            guard !field.isEmpty, field.utf8.allSatisfy(FeedDate.isDigit), let value = Double(field) else { return nil }
            total += value * (position == 0 ? 60 : 3600)
        }
        return total.isFinite ? total : nil
    }

    /// Digits with at most one `.` (no sign, no exponent, no `inf`).
    private static func decimal(_ field: Substring) -> Double? {
        guard !field.isEmpty, field.utf8.allSatisfy({ FeedDate.isDigit($0) || $0 == UInt8(ascii: ".") }),
              field.utf8.filter({ $0 == UInt8(ascii: ".") }).count <= 1, field.utf8.contains(where: FeedDate.isDigit) else { return nil }
        return Double(field)
    }
}
