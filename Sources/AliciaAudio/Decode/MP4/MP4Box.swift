/// A box of an ISO base media file (MP4, M4A): its four-character type and where its body lies in
/// the bytes it was read from. Every read is bounds-checked: a broken or hostile file gives nil,
/// never a trap.
struct MP4Box {
    let type: UInt32
    /// The body's bytes (after the size and type), as indices into the parent's byte array.
    let body: Range<Int>

    /// A four-character code; `first` stands before the three others (0xA9, "©", for iTunes's
    /// text tags).
    static func code(_ text: String, first: UInt8? = nil) -> UInt32 {
        let bytes = (first.map { [$0] } ?? []) + Array(text.utf8)
        return bytes.prefix(4).reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// The boxes inside `range` of `bytes`, in order; stops at the first that does not fit.
    static func children(of bytes: [UInt8], in range: Range<Int>) -> [MP4Box] {
        var result: [MP4Box] = []
        var reader = MP4Reader(bytes, range)
        while reader.remaining >= 8 {
            let start = reader.offset
            guard let size32 = reader.u32(), let type = reader.u32() else { break }
            var size = Int(size32)
            if size32 == 1 {
                guard let large = reader.u64(), large <= UInt64(Int.max) else { break }
                size = Int(large)
            } else if size32 == 0 {
                size = range.upperBound - start
            }
            let header = reader.offset - start
            guard size >= header, size <= range.upperBound - start else { break }
            result.append(MP4Box(type: type, body: reader.offset..<(start + size)))
            reader.offset = start + size
        }
        return result
    }

    /// The first child of `type`.
    static func child(_ type: UInt32, of bytes: [UInt8], in range: Range<Int>) -> MP4Box? {
        children(of: bytes, in: range).first { $0.type == type }
    }

    /// The box at the end of `path` (each a child of the one before), from `range`.
    static func find(_ path: [String], in bytes: [UInt8], _ range: Range<Int>) -> MP4Box? {
        var current = range
        var found: MP4Box?
        for name in path {
            guard let box = child(code(name), of: bytes, in: current) else { return nil }
            found = box
            // A `meta` box is a full box: its children follow a version and flags.
            current = name == "meta" ? min(box.body.lowerBound + 4, box.body.upperBound)..<box.body.upperBound : box.body
        }
        return found
    }
}

/// Big-endian integers from a span of bytes; nil past its end.
struct MP4Reader {
    let bytes: [UInt8]
    var offset: Int
    let end: Int

    init(_ bytes: [UInt8], _ range: Range<Int>) {
        self.bytes = bytes
        offset = max(0, min(range.lowerBound, bytes.count))
        end = max(offset, min(range.upperBound, bytes.count))
    }

    var remaining: Int { end - offset }

    mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, count <= remaining else { return false }
        offset += count
        return true
    }

    mutating func u8() -> UInt8? {
        guard remaining >= 1 else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func u16() -> UInt16? { integer(2).map { UInt16($0) } }
    mutating func u32() -> UInt32? { integer(4).map { UInt32($0) } }
    mutating func u64() -> UInt64? { integer(8) }

    mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, count <= remaining else { return nil }
        defer { offset += count }
        return bytes[offset..<(offset + count)]
    }

    private mutating func integer(_ width: Int) -> UInt64? {
        guard remaining >= width else { return nil }
        var value: UInt64 = 0
        for index in offset..<(offset + width) { value = value << 8 | UInt64(bytes[index]) }
        offset += width
        return value
    }

    /// A full box's version (its flags skipped).
    mutating func version() -> UInt8? {
        guard let version = u8(), skip(3) else { return nil }
        return version
    }
}
