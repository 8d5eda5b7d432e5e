#if canImport(Glibc)
import Glibc
#endif
internal import AliciaLocks

/// Bytes in a document's charset to UTF-8. UTF-8 itself passes through untouched (its bad bytes
/// are repaired on the way to the parser, `MarkupRepair`); UTF-16 and windows-1252 are converted
/// here, anything else by glibc's iconv. A byte that is not a character of its charset becomes
/// U+FFFD: a document is never refused for its encoding.
enum Transcoder {
    /// windows-1252's 0x80-0x9F (the five bytes it leaves undefined stay C1 controls, as WHATWG
    /// reads them).
    static let windows1252High: [UInt32] = [
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
        0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
    ]

    /// `bytes` (from `start`, past a byte order mark) as UTF-8; nil when iconv does not know the
    /// charset.
    static func utf8(_ bytes: [UInt8], from charset: Charset, start: Int) -> [UInt8]? {
        let body = bytes[start...]
        switch charset {
        case .utf8: return start == 0 ? bytes : Array(body)
        case .windows1252: return fromWindows1252(body)
        case .utf16LE: return fromUTF16(body, bigEndian: false)
        case .utf16BE: return fromUTF16(body, bigEndian: true)
        case .other(let label): return viaIconv(body, from: label)
        }
    }

    static func fromWindows1252(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 8)
        for byte in bytes {
            if byte < 0x80 {
                out.append(byte)
            } else {
                let code = byte < 0xA0 ? windows1252High[Int(byte - 0x80)] : UInt32(byte)
                appendUTF8(Unicode.Scalar(code) ?? "\u{FFFD}", to: &out)
            }
        }
        return out
    }

    static func fromUTF16(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) -> [UInt8] {
        let units = UTF16Units.of(bytes, bigEndian: bigEndian)
        var out: [UInt8] = []
        out.reserveCapacity(units.count * 2)
        var decoder = UTF16()
        var iterator = units.makeIterator()
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): appendUTF8(scalar, to: &out)
            case .error: appendUTF8("\u{FFFD}", to: &out)
            case .emptyInput: break loop
            }
        }
        if bytes.count % 2 == 1 { appendUTF8("\u{FFFD}", to: &out) }
        return out
    }

    /// glibc's iconv, a byte it cannot convert replaced by U+FFFD and skipped.
    static func viaIconv(_ bytes: ArraySlice<UInt8>, from label: String) -> [UInt8]? {
        guard let converter = iconv_open("UTF-8", label), Int(bitPattern: converter) != -1 else { return nil }
        defer { iconv_close(converter) }
        var input = Array(bytes)
        var out: [UInt8] = []
        out.reserveCapacity(input.count * 2)
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        input.withUnsafeMutableBytes { inputBytes in
            chunk.withUnsafeMutableBytes { chunkBytes in
                guard let outBase = chunkBytes.baseAddress else { return }
                var inPointer = inputBytes.baseAddress?.assumingMemoryBound(to: CChar.self)
                var inLeft = inputBytes.count
                while true {
                    var outPointer: UnsafeMutablePointer<CChar>? = outBase.assumingMemoryBound(to: CChar.self)
                    var outLeft = chunkBytes.count
                    // With the input done, a call without input ends a stateful charset's shift state.
                    let flushing = inLeft == 0
                    let result = flushing ? iconv(converter, nil, nil, &outPointer, &outLeft)
                        : iconv(converter, &inPointer, &inLeft, &outPointer, &outLeft)
                    let failure = result == -1 ? errno : 0
                    out.append(contentsOf: UnsafeRawBufferPointer(start: outBase, count: chunkBytes.count - outLeft))
                    if failure == E2BIG { continue }
                    guard !flushing, failure == EILSEQ || failure == EINVAL, inLeft > 0 else {
                        if flushing || failure != 0 { return }
                        continue
                    }
                    appendUTF8("\u{FFFD}", to: &out)
                    inPointer = inPointer.map { $0 + 1 }
                    inLeft -= 1
                }
            }
        }
        return out
    }

    static func appendUTF8(_ scalar: Unicode.Scalar, to out: inout [UInt8]) {
        UTF8.encode(scalar) { out.append($0) }
    }
}
