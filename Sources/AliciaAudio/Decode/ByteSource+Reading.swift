/// What a read of a whole span found.
enum SpanRead: Equatable {
    /// This many bytes: all that were asked for, or fewer where the source ended.
    case bytes(Int)
    case interrupted
    case failed
}

extension ByteSource {
    /// Reads `buffer.count` bytes at `offset`, looping over short reads until they are all there,
    /// the source ends, or a read is interrupted or fails. The decoders' one way of reading.
    func readFully(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) -> SpanRead {
        var done = 0
        while done < buffer.count {
            switch read(at: offset + Int64(done), into: UnsafeMutableRawBufferPointer(rebasing: buffer[done...])) {
            case .bytes(let n): done += n
            case .endOfFile: return .bytes(done)
            case .interrupted: return .interrupted
            case .failed: return .failed
            }
        }
        return .bytes(done)
    }

    /// `count` bytes at `offset` as an array (shorter where the source ended), for headers and tags
    /// read once; nil when a read was interrupted or failed.
    func bytes(at offset: Int64, count: Int) -> [UInt8]? {
        var result = [UInt8](repeating: 0, count: max(0, count))
        let outcome = result.withUnsafeMutableBytes { readFully(at: offset, into: $0) }
        guard case .bytes(let n) = outcome else { return nil }
        result.removeLast(result.count - n)
        return result
    }
}
