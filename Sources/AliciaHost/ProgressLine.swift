import AliciaSession
import AliciaAudio
import AliciaLocks
import AliciaLibrary

/// The one-line progress shown on a terminal while playing:
/// `▶ 1:23 / 45:00  ▕████▌    ▏  buffered 10 s`.
public enum ProgressLine {
    public static func render(_ snapshot: PlayerSnapshot, width: Int) -> String {
        let symbol: String
        switch snapshot.state {
        case .playing: symbol = "▶"
        case .paused: symbol = "⏸"
        case .loading, .buffering, .reconnecting, .voicing: symbol = "…"
        case .ended: symbol = "■"
        case .failed: symbol = "✖"
        case .idle: symbol = " "
        }
        // Ended, the line is the final state: all of it heard, nothing buffered to speak of.
        let ended = snapshot.state == .ended
        let position = ended ? snapshot.duration ?? snapshot.position : snapshot.position
        let elapsed = TimeSpec.clock(position)
        let total = snapshot.duration.map(TimeSpec.clock) ?? "--:--"
        let buffered = ended ? "" : "  buffered \(Int(snapshot.bufferedAhead.rounded())) s"
        var state = ""
        switch snapshot.state {
        case .loading: state = "  loading"
        case .buffering: state = "  buffering" + (snapshot.refill.map { " \(Int(($0 * 100).rounded()))%" } ?? "")
        case .reconnecting: state = "  reconnecting" + (snapshot.reconnectingFor.map { " \(Int($0)) s" } ?? "")
        case .voicing: state = "  voicing…"
        default: break
        }
        if let server = snapshot.noSoundServer { state = "  no sound server (trying \(server))" }
        let head = "\(symbol) \(elapsed) / \(total)"
        var speed = ""
        if snapshot.speed != 1 {
            let left = snapshot.duration.map { TimeSpec.listeningRemaining(position: snapshot.position, duration: $0, speed: snapshot.speed) }
            speed = "  " + (left.map { "-" + TimeSpec.clock($0) + " at " } ?? "") + speedText(snapshot.speed)
        }
        let tail = "\(speed)\(buffered)\(state)"
        let barWidth = width - head.count - tail.count - 4
        guard barWidth >= 8, let duration = snapshot.duration, duration > 0 else {
            return String((head + tail).prefix(max(0, width - 1)))
        }
        return head + "  " + bar(fraction: position / duration, width: barWidth) + tail
    }

    /// The progress in words, for the accessible mode and screen readers: `Playing Slow Tide,
    /// 12:00 of 45:00, at 1.5×`, `Paused at 12:03 of 45:00, Slow Tide`, `Buffering Slow Tide, 40%`.
    public static func words(_ snapshot: PlayerSnapshot) -> String {
        let title = snapshot.item?.title ?? "nothing"
        let time = TimeSpec.clock(snapshot.position) + (snapshot.duration.map { " of " + TimeSpec.clock($0) } ?? "")
        let speed = snapshot.speed != 1 ? ", at " + speedText(snapshot.speed) : ""
        var line: String
        switch snapshot.state {
        case .playing: line = "Playing \(title), \(time)\(speed)"
        case .paused: line = "Paused at \(time), \(title)"
        case .loading: line = "Loading \(title)"
        case .buffering: line = "Buffering \(title), \(time)" + (snapshot.refill.map { ", \(Int(($0 * 100).rounded()))% refilled" } ?? "")
        case .reconnecting: line = "Reconnecting" + (snapshot.reconnectingFor.map { " (\(Int($0)) s)" } ?? "") + ", \(title), \(time)"
        case .voicing: line = "Voicing \(title), \(time)"
        case .ended: line = "Finished \(title)"
        case .failed: line = "Could not play \(title)" + (snapshot.error.map { ": " + $0.message } ?? "")
        case .idle: line = "Nothing is playing"
        }
        if let server = snapshot.noSoundServer { line += ", no sound server (trying \(server))" }
        return line
    }

    /// A speed as the progress shows it: `1.5×`, `2×`, `0.75×`.
    public static func speedText(_ speed: Double) -> String {
        let hundredths = Int((speed * 100).rounded())
        var text = "\(hundredths / 100)"
        if hundredths % 100 != 0 {
            text += "." + (hundredths % 10 == 0 ? "\(hundredths % 100 / 10)" : String(hundredths % 100 + 100).dropFirst())
        }
        return text + "×"
    }

    /// A bar of eighth-blocks between `▕` and `▏`.
    package static func bar(fraction: Double, width: Int) -> String {
        let inner = width - 2
        let eighths = Int((min(max(fraction, 0), 1) * Double(inner * 8)).rounded(.down))
        let full = eighths / 8
        let partial = eighths % 8
        let partials = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]
        var text = "▕" + String(repeating: "█", count: full)
        if full < inner {
            text += partial > 0 ? partials[partial] : " "
            text += String(repeating: " ", count: inner - full - 1)
        }
        return text + "▏"
    }
}
