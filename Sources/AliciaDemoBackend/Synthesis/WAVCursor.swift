/// Reads byte ranges of a ``SynthesizedWAV``, synthesizing a block of frames at a time and keeping
/// the last block, so sequential reads of any size cost each frame once.
///
/// One cursor serves one response; it is touched only by that connection's thread.
final class WAVCursor {
    /// 4096 frames: 85 ms at 48 kHz, 16 KiB of stereo PCM; a multiple of the control grid.
    static let blockFrames = 4096

    let wav: SynthesizedWAV

    /// The block in `blockBytes`, -1 before the first.
    private var blockIndex = -1
    private var blockBytes: [UInt8]
    private var samples: [Float]

    init(_ wav: SynthesizedWAV) {
        self.wav = wav
        blockBytes = []
        samples = [Float](repeating: 0, count: Self.blockFrames * wav.source.channels)
    }

    /// Copies the file's bytes from `offset` into the front of `buffer`; returns how many (less than
    /// the buffer only at the end of the file).
    func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        precondition(offset >= 0, "WAVCursor.read: negative offset \(offset)")
        var position = offset
        var written = 0
        let end = min(wav.byteCount, offset + buffer.count)
        while position < end {
            let chunk: Int
            if position < SynthesizedWAV.headerSize {
                chunk = min(end, SynthesizedWAV.headerSize) - position
                wav.header.withUnsafeBytes { header in
                    UnsafeMutableRawBufferPointer(rebasing: buffer[written..<written + chunk])
                        .copyMemory(from: UnsafeRawBufferPointer(rebasing: header[position..<position + chunk]))
                }
            } else {
                let dataOffset = position - SynthesizedWAV.headerSize
                let blockBytesCount = Self.blockFrames * wav.bytesPerFrame
                load(block: dataOffset / blockBytesCount)
                let inBlock = dataOffset % blockBytesCount
                chunk = min(end - position, blockBytes.count - inBlock)
                blockBytes.withUnsafeBytes { block in
                    UnsafeMutableRawBufferPointer(rebasing: buffer[written..<written + chunk])
                        .copyMemory(from: UnsafeRawBufferPointer(rebasing: block[inBlock..<inBlock + chunk]))
                }
            }
            position += chunk
            written += chunk
        }
        return written
    }

    /// Synthesizes block `index` (the last one may be short) as little-endian 16-bit PCM.
    private func load(block index: Int) {
        guard index != blockIndex else { return }
        let channels = wav.source.channels
        let firstFrame = index * Self.blockFrames
        let sampleCount = min(Self.blockFrames, wav.source.frameCount - firstFrame) * channels
        samples.withUnsafeMutableBufferPointer { buffer in
            wav.source.render(firstFrame: firstFrame, into: UnsafeMutableBufferPointer(rebasing: buffer[0..<sampleCount]))
        }
        if blockBytes.count != sampleCount * 2 {
            blockBytes = [UInt8](repeating: 0, count: sampleCount * 2)
        }
        samples.withUnsafeBufferPointer { samples in
            blockBytes.withUnsafeMutableBytes { bytes in
                var sample = 0
                while sample < sampleCount {
                    bytes.storeBytes(of: SynthesizedWAV.pcm16(samples[sample]).littleEndian, toByteOffset: 2 * sample, as: Int16.self)
                    sample += 1
                }
            }
        }
        blockIndex = index
    }
}
