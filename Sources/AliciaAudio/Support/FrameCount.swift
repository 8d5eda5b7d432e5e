/// Seconds at a rate as a frame count, for times that come from outside: a seek of 1e300 seconds
/// over the control socket, a script's `seek 99999…`, a sleep timer of 1e300 minutes. `Int64(_:)`
/// of such a product traps (it once ended the player); these clamp to ±2^60 frames (760,000 years
/// at 48 kHz), so adding a real frame count to one, or tripling it for 3× speed, cannot overflow.
enum FrameCount {
    static let limit: Int64 = 1 << 60

    /// `seconds × rate`, rounded; 0 for NaN.
    static func of(seconds: Double, rate: Int) -> Int64 {
        clamped((seconds * Double(rate)).rounded())
    }

    /// A frame count held in a double, rounded and clamped; 0 for NaN.
    static func clamped(_ frames: Double) -> Int64 {
        if frames.isNaN { return 0 }
        if frames >= Double(limit) { return limit }
        if frames <= -Double(limit) { return -limit }
        return Int64(frames.rounded())
    }
}
