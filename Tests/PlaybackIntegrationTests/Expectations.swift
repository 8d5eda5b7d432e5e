import AliciaTestSupport
import Testing

/// A run that played to the end: exit 0, no signal, nothing printed (stdout and stderr are pipes).
func expectSuccess(_ result: PlayerResult, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(result.signal == nil, "crashed: \(result)", sourceLocation: sourceLocation)
    #expect(result.status == 0, "\(result)", sourceLocation: sourceLocation)
    #expect(result.stdout.isEmpty, "stdout not empty: \(result)", sourceLocation: sourceLocation)
    #expect(result.stderr.isEmpty, "stderr not empty: \(result)", sourceLocation: sourceLocation)
}

/// A run that failed cleanly: not a signal, `status` if given (else any non-zero status), nothing
/// on stdout and exactly one stderr line starting with "alicia-player: " that contains every string
/// of `containing`. Returns that line (nil if there was not exactly one).
@discardableResult
func expectErrorLine(
    _ result: PlayerResult,
    status: Int32? = nil,
    containing fragments: [String] = [],
    sourceLocation: SourceLocation = #_sourceLocation
) -> String? {
    #expect(result.signal == nil, "crashed: \(result)", sourceLocation: sourceLocation)
    if let status {
        #expect(result.status == status, "\(result)", sourceLocation: sourceLocation)
    } else {
        #expect(result.status != 0, "\(result)", sourceLocation: sourceLocation)
    }
    #expect(result.stdout.isEmpty, "stdout not empty: \(result)", sourceLocation: sourceLocation)
    let lines = result.stderrLines
    #expect(lines.count == 1, "expected exactly one stderr line: \(result)", sourceLocation: sourceLocation)
    guard lines.count == 1, let line = lines.first else { return nil }
    #expect(line.hasPrefix("alicia-player: "), "\(line.debugDescription)", sourceLocation: sourceLocation)
    for fragment in fragments {
        #expect(line.contains(fragment), "\(fragment.debugDescription) missing from \(line.debugDescription)", sourceLocation: sourceLocation)
    }
    return line
}

/// The capture, without the sink's silence before and after, is exactly `expected`, and has no
/// silent frame inside (an underrun gap; fixtures never have a silent frame).
func expectBitExact(
    captured: [Int16],
    expected: [Int16],
    channels: Int,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let trimmed = AudioCompare.trimmingSilentFrames(captured, channels: channels)
    let gap = AudioCompare.longestSilentRunFrames(trimmed, channels: channels)
    #expect(gap.isEmpty, "silent run of \(gap.count) frames from frame \(gap.lowerBound) inside the capture (underrun?)", sourceLocation: sourceLocation)
    #expect(
        AudioCompare.firstMismatch(expected: expected, actual: trimmed) == nil,
        "capture differs from source: \(AudioCompare.describeDifference(expected: expected, actual: trimmed, channels: channels))",
        sourceLocation: sourceLocation
    )
}

/// As ``expectBitExact(captured:expected:channels:sourceLocation:)`` for float captures, sample by
/// sample within `tolerance`.
func expectClose(
    captured: [Float],
    expected: [Float],
    channels: Int,
    tolerance: Float,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let trimmed = AudioCompare.trimmingSilentFrames(captured, channels: channels)
    let gap = AudioCompare.longestSilentRunFrames(trimmed, channels: channels)
    #expect(gap.isEmpty, "silent run of \(gap.count) frames from frame \(gap.lowerBound) inside the capture (underrun?)", sourceLocation: sourceLocation)
    #expect(
        AudioCompare.firstMismatch(expected: expected, actual: trimmed, tolerance: tolerance) == nil,
        "capture differs from source: \(AudioCompare.describeDifference(expected: expected, actual: trimmed, channels: channels, tolerance: tolerance))",
        sourceLocation: sourceLocation
    )
}

/// The trimmed capture is a prefix of `source` (possibly empty): whatever played was right.
func expectPrefix(
    captured: [Int16],
    of source: [Int16],
    channels: Int,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let trimmed = AudioCompare.trimmingSilentFrames(captured, channels: channels)
    let mismatch = AudioCompare.firstMismatch(expected: source, actual: trimmed)
    #expect(
        trimmed.count <= source.count && (mismatch == nil || mismatch == trimmed.count),
        "what played is not a prefix of the source: \(AudioCompare.describeDifference(expected: Array(source.prefix(trimmed.count)), actual: trimmed, channels: channels))",
        sourceLocation: sourceLocation
    )
}
