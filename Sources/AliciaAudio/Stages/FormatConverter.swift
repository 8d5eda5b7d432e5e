/// Converts an item in another format to the running stream's: channels mapped, the sample rate
/// converted by libsoxr, samples turned into the sink's type. Used where an item joins a stream
/// opened for another format, so the join stays seamless. Feeder thread only.
///
/// Channel mapping: mono goes to every output channel; many channels to mono are averaged;
/// otherwise output channel `c` takes input channel `c` (or `c mod n` when there are fewer).
final class FormatConverter: AudioStage {
    let input: AudioFormat
    let output: AudioFormat
    private let resampler: SoxrResampler?
    private let maxInputFrames: Int
    private let maxOutputFrames: Int
    /// The input as floats in the output's channel layout.
    private let mapped: UnsafeMutablePointer<Float>
    /// The resampler's output (floats).
    private let resampled: UnsafeMutablePointer<Float>
    /// One block in the output's sample type.
    private let block: UnsafeMutableRawPointer

    init(from input: AudioFormat, to output: AudioFormat, maxInputFrames: Int) throws(PlaybackError) {
        self.input = input
        self.output = output
        self.maxInputFrames = maxInputFrames
        resampler = input.sampleRate == output.sampleRate
            ? nil : try SoxrResampler(from: input.sampleRate, to: output.sampleRate, channels: output.channels)
        let ratio = Double(output.sampleRate) / Double(input.sampleRate)
        maxOutputFrames = max(maxInputFrames, Int((Double(maxInputFrames) * ratio).rounded(.up)) + 64)
        mapped = .allocate(capacity: maxInputFrames * output.channels)
        resampled = .allocate(capacity: maxOutputFrames * output.channels)
        block = .allocate(byteCount: maxOutputFrames * output.bytesPerFrame, alignment: 16)
    }

    deinit {
        mapped.deallocate()
        resampled.deallocate()
        block.deallocate()
    }

    /// Source frames per output frame.
    var ratio: Double { Double(input.sampleRate) / Double(output.sampleRate) }

    func process(_ bytes: UnsafeRawBufferPointer, emit: (UnsafeRawBufferPointer) -> SinkResult) -> SinkResult {
        var offset = 0
        let frameBytes = input.bytesPerFrame
        while offset < bytes.count {
            let frames = min(maxInputFrames, (bytes.count - offset) / frameBytes)
            guard frames > 0 else { break }
            map(bytes.baseAddress! + offset, frames: frames)
            offset += frames * frameBytes
            guard let resampler else {
                let result = emitBlock(mapped, frames: frames, emit: emit)
                guard case .done = result else { return result }
                continue
            }
            var done = 0
            while done < frames {
                let (consumed, produced) = resampler.process(mapped + done * output.channels, inputFrames: frames - done,
                                                             into: resampled, outputFrames: maxOutputFrames)
                done += consumed
                if produced > 0 {
                    let result = emitBlock(resampled, frames: produced, emit: emit)
                    guard case .done = result else { return result }
                }
                if consumed == 0 && produced == 0 { break }
            }
        }
        return .done
    }

    func flush(emit: (UnsafeRawBufferPointer) -> SinkResult) -> SinkResult {
        guard let resampler else { return .done }
        while true {
            let (_, produced) = resampler.process(nil, inputFrames: 0, into: resampled, outputFrames: maxOutputFrames)
            guard produced > 0 else { break }
            let result = emitBlock(resampled, frames: produced, emit: emit)
            guard case .done = result else { return result }
        }
        resampler.clear()
        return .done
    }

    func reset() {
        resampler?.clear()
    }

    /// The input frames as floats (±1) in the output's channels.
    private func map(_ source: UnsafeRawPointer, frames: Int) {
        let n = input.channels
        let m = output.channels
        for frame in 0..<frames {
            let base = frame * n
            if n == m {
                for c in 0..<m { mapped[frame * m + c] = sample(source, base + c) }
            } else if m == 1 {
                var sum: Float = 0
                for c in 0..<n { sum += sample(source, base + c) }
                mapped[frame] = sum / Float(n)
            } else {
                for c in 0..<m { mapped[frame * m + c] = sample(source, base + (n == 1 ? 0 : c % n)) }
            }
        }
    }

    private func sample(_ source: UnsafeRawPointer, _ index: Int) -> Float {
        switch input.sampleType {
        case .int16: return Float(source.assumingMemoryBound(to: Int16.self)[index]) / 32_768
        case .int32: return Float(Double(source.assumingMemoryBound(to: Int32.self)[index]) / 2_147_483_648)
        case .float32: return source.assumingMemoryBound(to: Float.self)[index]
        }
    }

    private func emitBlock(_ floats: UnsafeMutablePointer<Float>, frames: Int,
                           emit: (UnsafeRawBufferPointer) -> SinkResult) -> SinkResult {
        let count = frames * output.channels
        switch output.sampleType {
        case .int16:
            let out = block.assumingMemoryBound(to: Int16.self)
            for i in 0..<count { out[i] = Int16(clamping: Int((floats[i] * 32_768).rounded())) }
        case .int32:
            let out = block.assumingMemoryBound(to: Int32.self)
            for i in 0..<count { out[i] = Int32(clamping: Int64((Double(floats[i]) * 2_147_483_648).rounded())) }
        case .float32:
            block.copyMemory(from: floats, byteCount: count * 4)
        }
        return emit(UnsafeRawBufferPointer(start: block, count: frames * output.bytesPerFrame))
    }
}
