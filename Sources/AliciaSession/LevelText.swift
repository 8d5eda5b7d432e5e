import AliciaAudio

/// Volumes, speeds and switches as scripts and `ctl` write them: `50` (`50%`) sets, `+5` and `-5`
/// move from where it is; `1.5` (`1.5x`) sets a speed, `+0.25` moves it; `on`, `off`, `toggle`.
public enum LevelText {
    public static func volume(_ text: String) -> TransportCommand.Change? {
        let number = text.hasSuffix("%") ? String(text.dropLast()) : text
        guard let value = Double(number), value.isFinite else { return nil }
        if number.hasPrefix("+") || number.hasPrefix("-") { return abs(value) <= 150 ? .by(value) : nil }
        return VolumeScale.percentRange.contains(value) ? .set(value) : nil
    }

    public static func speed(_ text: String) -> TransportCommand.Change? {
        let number = text.hasSuffix("x") || text.hasSuffix("×") ? String(text.dropLast()) : text
        guard let value = Double(number), value.isFinite else { return nil }
        if number.hasPrefix("+") || number.hasPrefix("-") { return abs(value) <= 3 ? .by(value) : nil }
        return Player.speedRange.contains(value) ? .set(value) : nil
    }

    public static func mute(_ text: String) -> TransportCommand.Switch? {
        switch text {
        case "on", "yes", "true": return .on
        case "off", "no", "false": return .off
        case "toggle", "cycle": return .toggle
        default: return nil
        }
    }

    /// `off`, or a target loudness in LUFS from −40 to −5 (`-16`, `-16LUFS`).
    public static func loudness(_ text: String) -> LoudnessMatching? {
        if text == "off" { return .off }
        let number = text.hasSuffix("LUFS") ? String(text.dropLast(4)) : text
        guard let target = Double(number), (-40.0 ... -5.0).contains(target) else { return nil }
        return .target(target)
    }
}
