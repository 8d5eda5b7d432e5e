/// Where each sample (one AAC packet) of a track lies and when it plays, from the track's `stsz`,
/// `stsc`, `stco`/`co64` and `stts` boxes. Kept as the file keeps it, about 4 bytes a sample (a
/// 10-minute M4A: 110 KiB), not as an entry per sample with its offset and time: the offset of a
/// sample is its chunk's plus the sizes before it in the chunk, and the reader walks forward.
struct MP4SampleTable: Sendable {
    /// Each sample's size in bytes (empty when all have `fixedSize`).
    let sizes: [UInt32]
    let fixedSize: UInt32
    let count: Int
    /// Each chunk's byte offset in the file, and the index of its first sample.
    let chunkOffsets: [Int64]
    let chunkFirstSample: [Int]
    /// Runs of samples of one duration, in the media's time scale: (count, duration).
    let durations: [(count: Int, duration: Int64)]

    /// Reads the table from an `stbl` box's children; nil when a box is missing or the boxes
    /// disagree (more samples named than chunks hold).
    init?(_ bytes: [UInt8], stbl: Range<Int>) {
        let children = MP4Box.children(of: bytes, in: stbl)
        func box(_ name: String) -> MP4Box? { children.first { $0.type == MP4Box.code(name) } }
        let chunkBox = box("stco").map { ($0, false) } ?? box("co64").map { ($0, true) }
        guard let stsz = box("stsz"), let stsc = box("stsc"), let stts = box("stts"), let (chunkList, wide) = chunkBox,
              let chunks = Self.offsets(bytes, chunkList.body, wide: wide), !chunks.isEmpty,
              let (sizes, fixed, count) = Self.sizes(bytes, stsz.body), count > 0, let runs = Self.durations(bytes, stts.body),
              let first = Self.firstSamples(bytes, stsc.body, chunks: chunks.count, samples: count) else { return nil }
        (self.sizes, fixedSize, self.count) = (sizes, fixed, count)
        chunkOffsets = chunks
        chunkFirstSample = first
        durations = runs
    }

    /// (sizes, fixed size, count) from `stsz`.
    private static func sizes(_ bytes: [UInt8], _ body: Range<Int>) -> ([UInt32], UInt32, Int)? {
        var reader = MP4Reader(bytes, body)
        guard reader.version() != nil, let fixed = reader.u32(), let count = reader.u32().map(Int.init) else { return nil }
        if fixed != 0 { return count <= 1 << 28 ? ([], fixed, count) : nil }
        guard count <= reader.remaining / 4 else { return nil }
        var sizes = [UInt32]()
        sizes.reserveCapacity(count)
        for _ in 0..<count { sizes.append(reader.u32()!) }
        return (sizes, 0, count)
    }

    private static func offsets(_ bytes: [UInt8], _ body: Range<Int>, wide: Bool) -> [Int64]? {
        var reader = MP4Reader(bytes, body)
        guard reader.version() != nil, let count = reader.u32().map(Int.init), count <= reader.remaining / (wide ? 8 : 4) else { return nil }
        var offsets = [Int64]()
        offsets.reserveCapacity(count)
        for _ in 0..<count {
            guard let value = wide ? reader.u64() : reader.u32().map(UInt64.init), value <= 1 << 48 else { return nil }
            offsets.append(Int64(value))
        }
        return offsets
    }

    private static func durations(_ bytes: [UInt8], _ body: Range<Int>) -> [(count: Int, duration: Int64)]? {
        var reader = MP4Reader(bytes, body)
        guard reader.version() != nil, let count = reader.u32().map(Int.init), count <= reader.remaining / 8 else { return nil }
        var runs: [(count: Int, duration: Int64)] = []
        for _ in 0..<count {
            guard let samples = reader.u32(), let duration = reader.u32() else { return nil }
            runs.append((Int(samples), Int64(duration)))
        }
        return runs
    }

    /// The index of each chunk's first sample, from `stsc`'s runs of chunks with one sample count.
    private static func firstSamples(_ bytes: [UInt8], _ body: Range<Int>, chunks: Int, samples: Int) -> [Int]? {
        var reader = MP4Reader(bytes, body)
        guard reader.version() != nil, let count = reader.u32().map(Int.init), count <= reader.remaining / 12 else { return nil }
        var runs: [(firstChunk: Int, perChunk: Int)] = []
        for _ in 0..<count {
            guard let firstChunk = reader.u32(), let perChunk = reader.u32(), reader.skip(4), firstChunk >= 1 else { return nil }
            runs.append((Int(firstChunk) - 1, Int(perChunk)))
        }
        var first = [Int]()
        first.reserveCapacity(chunks)
        var sample = 0
        var run = 0
        for chunk in 0..<chunks {
            while run + 1 < runs.count && runs[run + 1].firstChunk <= chunk { run += 1 }
            guard run < runs.count, runs[run].firstChunk <= chunk else { return nil }
            first.append(sample)
            sample += runs[run].perChunk
        }
        return sample >= samples ? first : nil
    }

    func size(of sample: Int) -> Int { Int(sizes.isEmpty ? fixedSize : sizes[sample]) }

    /// The byte offset of `sample` (0 ≤ sample < count): its chunk's, plus the samples before it there.
    func offset(of sample: Int) -> Int64 {
        let chunk = chunk(of: sample)
        var offset = chunkOffsets[chunk]
        for before in chunkFirstSample[chunk]..<sample { offset += Int64(size(of: before)) }
        return offset
    }

    /// The byte offset of the sample after `sample`, which lies at `offset`: the next chunk's start
    /// where a chunk ends. A reader walking forward asks this, in constant time.
    func offset(after sample: Int, at offset: Int64, chunk: inout Int) -> Int64 {
        let next = sample + 1
        if chunk + 1 < chunkFirstSample.count && chunkFirstSample[chunk + 1] <= next {
            chunk += 1
            return chunkOffsets[chunk]
        }
        return offset + Int64(size(of: sample))
    }

    /// The chunk `sample` is in.
    func chunk(of sample: Int) -> Int {
        var low = 0
        var high = chunkFirstSample.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if chunkFirstSample[middle] <= sample { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// When `sample` starts, in the media's time scale.
    func time(of sample: Int) -> Int64 {
        var time: Int64 = 0
        var left = sample
        for run in durations {
            let taken = min(left, run.count)
            time = time &+ Int64(taken) &* run.duration
            left -= taken
            if left == 0 { break }
        }
        return time
    }

    /// Where a reader walking forward is in the runs of durations.
    struct TimeCursor {
        var sample = 0
        var run = 0
        var inRun = 0
        var time: Int64 = 0
    }

    /// When `sample` starts, from `cursor` on (from the start when it lies behind): constant time
    /// a packet for a reader walking forward.
    func time(of sample: Int, cursor: inout TimeCursor) -> Int64 {
        if sample < cursor.sample { cursor = TimeCursor() }
        while cursor.sample < sample, cursor.run < durations.count {
            let run = durations[cursor.run]
            let step = min(run.count - cursor.inRun, sample - cursor.sample)
            cursor.time = cursor.time &+ Int64(step) &* run.duration
            cursor.sample += step
            cursor.inRun += step
            if cursor.inRun >= run.count { (cursor.run, cursor.inRun) = (cursor.run + 1, 0) }
        }
        return cursor.time
    }

    /// The sample playing at `time` (the last one when it is past the end).
    func sample(at time: Int64) -> Int {
        var start: Int64 = 0
        var index = 0
        for run in durations where run.count > 0 {
            let span = Int64(run.count) &* run.duration
            if time < start &+ span, run.duration > 0 {
                return min(count - 1, index + Int((time - start) / run.duration))
            }
            start = start &+ span
            index += run.count
        }
        return max(0, count - 1)
    }

    /// The whole track's length in the media's time scale.
    var duration: Int64 { durations.reduce(0) { $0 &+ Int64($1.count) &* $1.duration } }
}

extension Int64 {
    /// `value` rounded, held within ±2^53: a broken file's times never trap a conversion.
    init(roundedClamped value: Double) {
        self = value.isNaN ? 0 : Int64(Swift.max(-0x1p53, Swift.min(0x1p53, value.rounded())))
    }
}
