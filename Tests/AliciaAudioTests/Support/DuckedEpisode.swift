import Testing
import AliciaTestSupport

/// A 440 Hz episode ducked under a voice note, as a capture heard it: the episode's level in 20 ms
/// windows (told apart from the note by frequency), and its level before, under and after the note.
struct DuckedEpisode {
    /// The episode's level (dB) in each 20 ms window of the capture.
    let levels: [Double]

    /// Nil, with an issue recorded, when the capture holds 150 windows (3 s) or fewer.
    init?(captured: [Int16], rate: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        let window = rate / 50  // 20 ms
        levels = stride(from: 0, to: captured.count / 2 - window, by: window).map {
            Tone.level(captured, channels: 2, from: $0, frames: window, frequency: 440, rate: rate)
        }
        guard levels.count > 150 else {
            Issue.record("capture too short: \(levels.count) windows", sourceLocation: sourceLocation)
            return nil
        }
    }

    /// The median of windows 5 to 39: the level before the note.
    var before: Double { levels[5..<40].sorted()[17] }

    /// The level with `1/share` of the windows below it: under the note.
    func ducked(lowestShare share: Int) -> Double { levels.sorted()[levels.count / share] }

    /// The median of windows 30 to 6 from the end: the level after the note.
    var after: Double { levels[(levels.count - 30)..<(levels.count - 5)].sorted()[12] }
}
