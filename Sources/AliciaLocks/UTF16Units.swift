/// UTF-16 text as bytes (an ID3v2 frame, a feed served as UTF-16) read into code units, for the
/// standard library's UTF-16 decoder. A last odd byte is left out.
package enum UTF16Units {
    package static func of(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) -> [UInt16] {
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var at = bytes.startIndex
        while at + 1 < bytes.endIndex {
            let (first, second) = (UInt16(bytes[at]), UInt16(bytes[at + 1]))
            units.append(bigEndian ? first << 8 | second : second << 8 | first)
            at += 2
        }
        return units
    }
}
