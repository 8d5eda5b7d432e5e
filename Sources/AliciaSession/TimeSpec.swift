import AliciaAudio

/// Times as people type and read them: `90`, `1.5`, `2:05`, `1:02:03`, `50%`.
public enum TimeSpec {
    /// Parses a start position; nil when `text` is not one.
    public static func parse(_ text: String) -> StartPosition? {
        let text = text.trimmingWhitespace()
        guard !text.isEmpty else { return nil }
        if text.hasSuffix("%") {
            guard let percent = Double(text.dropLast()), percent.isFinite, (0...100).contains(percent) else { return nil }
            return .fraction(percent / 100)
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var seconds = 0.0
        for (index, part) in parts.enumerated() {
            let isLast = index == parts.count - 1
            guard !part.isEmpty, part.allSatisfy({ $0.isASCII && ($0.isNumber || (isLast && $0 == ".")) }),
                  let value = Double(part), value.isFinite, value >= 0 else { return nil }
            // Minutes and seconds after the first field stay below 60.
            if index > 0 && value >= 60 { return nil }
            seconds = seconds * 60 + value
        }
        return .seconds(seconds)
    }

    /// A seek as scripts and `ctl` write it: `+30`/`-15` from here, `90`/`1:20`/`1:45:00` from the
    /// start, `50%` of the length, `+10%`/`-10%` of the length from here; nil when it is none of them.
    public static func seekTarget(_ text: String) -> TransportCommand.SeekTarget? {
        let text = text.trimmingWhitespace()
        let signed = text.hasPrefix("+") || text.hasPrefix("-")
        if signed && text.hasSuffix("%") {
            guard let percent = Double(text.dropLast()), percent.isFinite else { return nil }
            return .byFraction(percent / 100)
        }
        if signed {
            let sign = text.hasPrefix("-") ? -1.0 : 1.0
            guard case .seconds(let seconds)? = parse(String(text.dropFirst())) else { return nil }
            return .by(sign * seconds)
        }
        switch parse(text) {
        case .seconds(let seconds)?: return .to(seconds)
        case .fraction(let fraction)?: return .toFraction(fraction)
        case nil: return nil
        }
    }

    /// Seconds left of `duration` at `position`, as the clocks show them: the total's whole seconds
    /// less the elapsed whole seconds, so what is shown adds up (`0:00 … -3:00 / 3:00`, not `-2:59`;
    /// `1:23 … -1:37 / 3:00`), where rounding each alone down would lose a second.
    public static func remaining(position: Double, duration: Double) -> Double {
        guard position.isFinite, duration.isFinite else { return 0 }
        return max(0, duration.rounded(.down) - max(0, position).rounded(.down))
    }

    /// The listening time left at `speed`: what remains, played `speed` times as fast.
    public static func listeningRemaining(position: Double, duration: Double, speed: Double) -> Double {
        guard speed > 0 else { return remaining(position: position, duration: duration) }
        return remaining(position: position, duration: duration) / speed
    }

    /// Seconds for a script or a shell: two decimals (`83.42`, `7.00`), never negative.
    public static func seconds(_ value: Double) -> String {
        let hundredths = Int((max(0, value) * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// `m:ss` under an hour, `h:mm:ss` from an hour on.
    public static func clock(_ seconds: Double) -> String {
        // Clamped before the conversion, which traps past Int's range (a hostile chapter or cue time).
        let total = seconds.isFinite ? Int(min(max(0, seconds), 1e9).rounded(.down)) : 0
        let hours = total / 3600
        let minutes = total / 60 % 60
        let secs = total % 60
        let ss = secs < 10 ? "0\(secs)" : "\(secs)"
        if hours > 0 {
            let mm = minutes < 10 ? "0\(minutes)" : "\(minutes)"
            return "\(hours):\(mm):\(ss)"
        }
        return "\(minutes):\(ss)"
    }
}

extension String {
    public func trimmingWhitespace() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}
