/// A WAV's cue points and their labels, as chapters: the `cue ` chunk's points (each a sample
/// offset) named by the `labl` entries of its `LIST`/`adtl` chunk. libsndfile reads cue points but
/// not their labels, so the chunks are walked here: their headers only, skipping the data chunk,
/// so a streamed WAV costs a read of the chunks after its audio (in the tail the fetcher keeps).
enum RIFFCues {
    /// Chunks walked at most: a file of a million empty chunks is not worth the reads.
    static let chunkLimit = 256
    /// Cue and label chunks larger than this are not read (a point is 24 bytes).
    static let chunkBytesLimit = 1 << 20

    /// The chapters of the RIFF/WAVE file `source` holds, at `sampleRate`; empty when it has none.
    /// Nil when a read was interrupted.
    static func chapters(in source: ByteSource, sampleRate: Int) -> [Chapter]? {
        guard let header = source.bytes(at: 0, count: 12) else { return nil }
        guard header.count == 12, header.starts(with: Array("RIFF".utf8)) || header.starts(with: Array("RF64".utf8)),
              Array(header[8..<12]) == Array("WAVE".utf8) else { return [] }
        var cue: [UInt8]?, adtl: [UInt8]?
        var offset: Int64 = 12
        let end = source.length() ?? Int64.max
        for _ in 0..<chunkLimit where offset + 8 <= end {
            guard let chunk = source.bytes(at: offset, count: 8) else { return nil }
            guard chunk.count == 8 else { break }
            let id = String(decoding: chunk[0..<4], as: UTF8.self)
            var size = Int64(UInt32(chunk[4]) | UInt32(chunk[5]) << 8 | UInt32(chunk[6]) << 16 | UInt32(chunk[7]) << 24)
            // RF64's data chunk says 0xFFFFFFFF and keeps its size in `ds64`: nothing after it is found.
            if size == 0xFFFF_FFFF { break }
            if id == "cue " || id == "LIST", size <= chunkBytesLimit {
                guard let body = source.bytes(at: offset + 8, count: Int(size)) else { return nil }
                if id == "cue " { cue = body } else if body.starts(with: Array("adtl".utf8)) { adtl = body }
            }
            size += size & 1
            offset += 8 + size
        }
        guard let cue else { return [] }
        return chapters(cue: cue, labels: adtl.map(labels) ?? [:], sampleRate: sampleRate)
    }

    /// The `cue ` chunk's points (count, then id, position, chunk, chunk start, block start,
    /// sample offset each) as chapters, named by `labels`.
    static func chapters(cue: [UInt8], labels: [UInt32: String], sampleRate: Int) -> [Chapter] {
        guard sampleRate > 0, let count = cue.littleEndian32(at: 0) else { return [] }
        var points: [(UInt32, UInt32)] = []
        for index in 0..<min(Int(count), (cue.count - 4) / 24) {
            let at = 4 + index * 24
            if let id = cue.littleEndian32(at: at), let sample = cue.littleEndian32(at: at + 20) { points.append((id, sample)) }
        }
        points.sort { $0.1 < $1.1 }
        return points.enumerated().map { index, point in
            Chapter(title: labels[point.0] ?? "Cue \(index + 1)", start: Double(point.1) / Double(sampleRate))
        }
    }

    /// The `labl` (and `note`) entries of an `adtl` list: cue id → text.
    static func labels(_ list: [UInt8]) -> [UInt32: String] {
        var labels: [UInt32: String] = [:]
        var at = 4
        while at + 8 <= list.count {
            let id = String(decoding: list[at..<(at + 4)], as: UTF8.self)
            guard let size = list.littleEndian32(at: at + 4).map(Int.init), size <= list.count - at - 8 else { break }
            if id == "labl" || id == "note", size > 4, let cueID = list.littleEndian32(at: at + 8) {
                let text = String(decoding: list[(at + 12)..<(at + 8 + size)].prefix { $0 != 0 }, as: UTF8.self)
                if id == "labl" || labels[cueID] == nil { labels[cueID] = text.tagValue }
            }
            at += 8 + size + (size & 1)
        }
        return labels
    }
}

extension Array where Element == UInt8 {
    /// The little-endian 32-bit value at `offset`, if the bytes are there.
    func littleEndian32(at offset: Int) -> UInt32? {
        guard offset >= 0, offset + 4 <= count else { return nil }
        return UInt32(self[offset]) | UInt32(self[offset + 1]) << 8 | UInt32(self[offset + 2]) << 16 | UInt32(self[offset + 3]) << 24
    }
}
