#if canImport(Glibc)
import Glibc
#endif

/// Comparisons of captured audio with its source, over interleaved samples.
///
/// "Frame" is one sample per channel; indexes returned are frame indexes unless a name says "sample".
/// A frame is silent when all its samples are zero, which a ``WAVFixture`` frame never is.
///
/// Whole captures (a million samples and more) go through raw buffers, `memcpy` and `memcmp`, not a
/// closure or a generic iterator step per sample: debug builds, and AddressSanitizer builds even more,
/// run those per-sample calls unoptimised, hundreds of times slower.
public enum AudioCompare {
    // MARK: Decoding raw captures

    /// Little-endian 16-bit samples; a trailing odd byte is ignored.
    public static func int16Samples<Bytes: Collection<UInt8>>(littleEndian bytes: Bytes) -> [Int16] {
        #if _endian(little)
        if let samples = bytes.withContiguousStorageIfAvailable({ copySamples(UnsafeRawBufferPointer($0), as: Int16.self) }) {
            return samples
        }
        #endif
        var samples: [Int16] = []
        samples.reserveCapacity(bytes.count / 2)
        var iterator = bytes.makeIterator()
        while let low = iterator.next(), let high = iterator.next() {
            samples.append(Int16(bitPattern: UInt16(low) | UInt16(high) << 8))
        }
        return samples
    }

    /// Little-endian 32-bit integer samples; trailing bytes short of a sample are ignored.
    public static func int32Samples<Bytes: Collection<UInt8>>(littleEndian bytes: Bytes) -> [Int32] {
        words(littleEndian: bytes) { Int32(bitPattern: $0) }
    }

    /// Little-endian IEEE float samples; trailing bytes short of a sample are ignored.
    public static func float32Samples<Bytes: Collection<UInt8>>(littleEndian bytes: Bytes) -> [Float] {
        words(littleEndian: bytes) { Float(bitPattern: $0) }
    }

    /// Little-endian 32-bit samples, each word's bits made a `Sample` by `sample`: copied as they
    /// lie where the bytes are contiguous on a little-endian machine, else word by word.
    private static func words<Bytes: Collection<UInt8>, Sample>(littleEndian bytes: Bytes, _ sample: (UInt32) -> Sample) -> [Sample] {
        #if _endian(little)
        if let samples = bytes.withContiguousStorageIfAvailable({ copySamples(UnsafeRawBufferPointer($0), as: Sample.self) }) {
            return samples
        }
        #endif
        return littleEndianWords(bytes).map(sample)
    }

    /// The whole `Sample`s at the start of `bytes`, copied as they lie: on a little-endian machine,
    /// little-endian samples are already the values (float bit patterns included).
    private static func copySamples<Sample>(_ bytes: UnsafeRawBufferPointer, as _: Sample.Type) -> [Sample] {
        let count = bytes.count / MemoryLayout<Sample>.size
        return [Sample](unsafeUninitializedCapacity: count) { buffer, initialized in
            if count > 0 {
                UnsafeMutableRawPointer(buffer.baseAddress!).copyMemory(from: bytes.baseAddress!, byteCount: count * MemoryLayout<Sample>.size)
            }
            initialized = count
        }
    }

    // MARK: Silence

    /// Whether any byte is non-zero (a raw capture chunk holds more than silence), a word at a time.
    public static func containsNonZeroByte(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset + 8 <= bytes.count {
            if bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self) != 0 { return true }
            offset += 8
        }
        while offset < bytes.count {
            if bytes[offset] != 0 { return true }
            offset += 1
        }
        return false
    }

    /// The frames of `frameBytes` bytes in `bytes` (whole frames only) holding a non-zero byte.
    /// Silence is skipped 512 frames at a time at word speed.
    public static func audibleFrames(_ bytes: UnsafeRawBufferPointer, frameBytes: Int) -> Int {
        precondition(frameBytes > 0, "AudioCompare.audibleFrames: frameBytes \(frameBytes)")
        let whole = bytes.count / frameBytes * frameBytes
        var audible = 0
        var block = 0
        while block < whole {
            let end = min(block + 512 * frameBytes, whole)
            if containsNonZeroByte(UnsafeRawBufferPointer(rebasing: bytes[block..<end])) {
                for frame in stride(from: block, to: end, by: frameBytes)
                where isAudible(bytes, at: frame, frameBytes: frameBytes) { audible += 1 }
            }
            block = end
        }
        return audible
    }

    private static func isAudible(_ bytes: UnsafeRawBufferPointer, at offset: Int, frameBytes: Int) -> Bool {
        switch frameBytes {
        case 2: return bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self) != 0
        case 4: return bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self) != 0
        case 8: return bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self) != 0
        default: return containsNonZeroByte(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + frameBytes]))
        }
    }

    /// As ``containsNonZeroByte(_:)-(UnsafeRawBufferPointer)`` for an array.
    public static func containsNonZeroByte(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { containsNonZeroByte($0) }
    }

    /// `samples` without the leading and trailing silent frames (a sink's output before the stream
    /// started and after it ended). A trailing partial frame is dropped first.
    public static func trimmingSilentFrames<Sample: Numeric>(_ samples: [Sample], channels: Int) -> [Sample] {
        let frames = samples.count / channels
        var first = 0
        while first < frames && isSilentFrame(samples, first, channels) { first += 1 }
        var end = frames
        while end > first && isSilentFrame(samples, end - 1, channels) { end -= 1 }
        return Array(samples[first * channels..<end * channels])
    }

    /// `samples` without any run of at least `minFrames` silent frames: the sink's own silence,
    /// mixed in before the stream started, after it ended, and wherever a starved stream ran dry or
    /// waited corked. A source whose quietest stretches are faint noise (never a long run of zero
    /// frames) comes back as the player wrote it, however often the server had to wait for it.
    public static func removingSilentRuns<Sample: Numeric>(_ samples: [Sample], channels: Int, minFrames: Int) -> [Sample] {
        let frames = samples.count / channels
        var kept: [Sample] = []
        kept.reserveCapacity(samples.count)
        // Frames from `from` are kept up to the start of the next long silent run, which is skipped.
        var from = 0
        var frame = 0
        while frame < frames {
            guard isSilentFrame(samples, frame, channels) else {
                frame += 1
                continue
            }
            var end = frame
            while end < frames && isSilentFrame(samples, end, channels) { end += 1 }
            if end - frame >= minFrames {
                kept += samples[from * channels..<frame * channels]
                from = end
            }
            frame = end
        }
        kept += samples[from * channels..<frames * channels]
        return kept
    }

    /// True if `samples` holds at least `minFrames` consecutive silent frames (an underrun gap, when
    /// the capture was trimmed first and the source never has a silent frame).
    public static func containsSilentRun<Sample: Numeric>(_ samples: [Sample], channels: Int, minFrames: Int) -> Bool {
        longestSilentRun(samples, channels: channels) >= max(1, minFrames)
    }

    /// The length in frames of the longest run of silent frames.
    public static func longestSilentRun<Sample: Numeric>(_ samples: [Sample], channels: Int) -> Int {
        longestSilentRunFrames(samples, channels: channels).count
    }

    /// The frame indexes of the longest run of silent frames (the first of the longest, when several
    /// are as long); empty when no frame is silent. For failure messages that say where a gap is.
    public static func longestSilentRunFrames<Sample: Numeric>(_ samples: [Sample], channels: Int) -> Range<Int> {
        var longest = 0..<0
        var start = 0
        for frame in 0..<samples.count / channels {
            if isSilentFrame(samples, frame, channels) {
                if frame + 1 - start > longest.count { longest = start..<frame + 1 }
            } else {
                start = frame + 1
            }
        }
        return longest
    }

    // MARK: Equality

    /// The first sample index where the two differ, or nil if they are equal. When one is a prefix of
    /// the other, the index is the shorter one's count.
    public static func firstMismatch(expected: [Int16], actual: [Int16]) -> Int? {
        let common = min(expected.count, actual.count)
        if samplesEqual(expected, from: 0, actual, from: 0, count: common) {
            return expected.count == actual.count ? nil : common
        }
        return expected.withUnsafeBufferPointer { expected in
            actual.withUnsafeBufferPointer { actual in
                var index = 0
                while expected[index] == actual[index] { index += 1 }
                return index
            }
        }
    }

    /// As ``firstMismatch(expected:actual:)-(_,[Int16])``, samples being equal within `tolerance`.
    public static func firstMismatch(expected: [Float], actual: [Float], tolerance: Float) -> Int? {
        let common = min(expected.count, actual.count)
        let mismatch = expected.withUnsafeBufferPointer { expected in
            actual.withUnsafeBufferPointer { actual -> Int? in
                // `magnitude` is what `abs` returns for a Float, NaN included (never within tolerance).
                for index in 0..<common where !((expected[index] - actual[index]).magnitude <= tolerance) {
                    return index
                }
                return nil
            }
        }
        if let mismatch { return mismatch }
        return expected.count == actual.count ? nil : common
    }

    /// The `k` for which `capture == source[0..<k] ++ source[target...]` (frames), or nil if there is
    /// none: a play from the start that jumped to frame `target` after `k` frames. `k == 0` is a
    /// playback that started at `target`.
    public static func seekJoin(capture: [Int16], source: [Int16], channels: Int, target: Int) -> Int? {
        let sourceFrames = source.count / channels
        let captureFrames = capture.count / channels
        guard target >= 0, target <= sourceFrames else { return nil }
        let k = captureFrames - (sourceFrames - target)
        guard k >= 0, k <= sourceFrames else { return nil }
        let headEqual = samplesEqual(capture, from: 0, source, from: 0, count: k * channels)
        let tailEqual = samplesEqual(capture, from: k * channels, source, from: target * channels, count: (captureFrames - k) * channels)
        return headEqual && tailEqual ? k : nil
    }

    /// `a[aStart..<aStart + count] == b[bStart..<bStart + count]`, by `memcmp`.
    private static func samplesEqual(_ a: [Int16], from aStart: Int, _ b: [Int16], from bStart: Int, count: Int) -> Bool {
        precondition(aStart >= 0 && bStart >= 0 && count >= 0 && aStart + count <= a.count && bStart + count <= b.count,
                     "AudioCompare.samplesEqual: \(aStart)+\(count) of \(a.count), \(bStart)+\(count) of \(b.count)")
        guard count > 0 else { return true }
        return a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                memcmp(a.baseAddress! + aStart, b.baseAddress! + bStart, count * MemoryLayout<Int16>.stride) == 0
            }
        }
    }

    // MARK: Messages

    /// A one-line account of how `actual` differs from `expected`, for test failure messages.
    public static func describeDifference(expected: [Int16], actual: [Int16], channels: Int) -> String {
        guard let index = firstMismatch(expected: expected, actual: actual) else {
            return "identical (\(expected.count / channels) frames)"
        }
        return describe(index, expected, actual, channels)
    }

    /// As ``describeDifference(expected:actual:channels:)-(_,[Int16],_)`` with a tolerance.
    public static func describeDifference(expected: [Float], actual: [Float], channels: Int, tolerance: Float) -> String {
        guard let index = firstMismatch(expected: expected, actual: actual, tolerance: tolerance) else {
            return "equal within \(tolerance) (\(expected.count / channels) frames)"
        }
        return describe(index, expected, actual, channels)
    }

    private static func describe<Sample>(_ index: Int, _ expected: [Sample], _ actual: [Sample], _ channels: Int) -> String {
        var text = "expected \(expected.count / channels) frames, got \(actual.count / channels); "
        text += "first difference at frame \(index / channels) channel \(index % channels)"
        if index < expected.count && index < actual.count {
            text += ": expected \(expected[index]), got \(actual[index])"
        } else {
            text += ": one ends there"
        }
        return text
    }

    private static func isSilentFrame<Sample: Numeric>(_ samples: [Sample], _ frame: Int, _ channels: Int) -> Bool {
        let start = frame * channels
        for index in start..<start + channels where samples[index] != .zero {
            return false
        }
        return true
    }

    private static func littleEndianWords<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> [UInt32] {
        var words: [UInt32] = []
        words.reserveCapacity(bytes.count / 4)
        var iterator = bytes.makeIterator()
        while let b0 = iterator.next(), let b1 = iterator.next(), let b2 = iterator.next(), let b3 = iterator.next() {
            words.append(UInt32(b0) | UInt32(b1) << 8 | UInt32(b2) << 16 | UInt32(b3) << 24)
        }
        return words
    }
}
