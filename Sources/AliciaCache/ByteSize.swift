/// Sizes as people write them (`2G`, `500M`, `1.5GiB`, `300k`, `1048576`) and as they are shown
/// (`1.9 GiB`): powers of 1024 throughout, which is what `du -h` and `ls -h` print.
package enum ByteSize {
    /// The bytes `text` names; nil when it is not a size.
    package static func parse(_ text: String) -> Int64? {
        var number = text.trimmingSpaces().lowercased()
        for suffix in ["ib", "b"] where number.hasSuffix(suffix) && number.count > suffix.count {
            number.removeLast(suffix.count)
            break
        }
        var scale: Double = 1
        if let last = number.last, let power = ["k": 1, "m": 2, "g": 3, "t": 4][String(last)] {
            number.removeLast()
            for _ in 0..<power { scale *= 1024 }
        }
        guard let value = Double(number.trimmingSpaces()), value.isFinite, value >= 0 else { return nil }
        let bytes = value * scale
        guard bytes < 9e18 else { return nil }
        return Int64(bytes.rounded())
    }

    /// `812 B`, `35.2 MiB`, `1.9 GiB`.
    package static func format(_ bytes: Int64) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        if unit == 0 { return "\(bytes) B" }
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) \(units[unit])"
    }
}

extension String {
    func trimmingSpaces() -> String {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return String(text)
    }
}
