#if canImport(Glibc)
import Glibc
#endif

/// Whether a downloaded WAV is whole: its RIFF size and its data chunk end where the file does.
/// Files that are not RIFF/WAVE pass (their size was checked against the server's).
enum WAVCheck {
    /// Nil when the file is fine; else what is wrong.
    static func problem(fd: Int32, size: Int64) -> String? {
        var header = [UInt8](repeating: 0, count: 12)
        guard pread(fd, &header, 12, 0) == 12, header[0..<4] == [0x52, 0x49, 0x46, 0x46],
              header[8..<12] == [0x57, 0x41, 0x56, 0x45] else { return nil }
        let riff = Int64(littleEndian32(header, 4))
        // 0 and 0xFFFFFFFF: written while streaming, size unknown. Both are left to the decoder.
        if riff != 0 && riff != 0xFFFF_FFFF && riff + 8 > size {
            return "its WAV header says \(riff + 8) bytes, the file has \(size)"
        }
        // Walk the chunks to `data`; its end must be within the file.
        var offset: Int64 = 12
        var chunk = [UInt8](repeating: 0, count: 8)
        while offset + 8 <= size {
            guard pread(fd, &chunk, 8, off_t(offset)) == 8 else { return "its WAV header cannot be read" }
            let length = Int64(littleEndian32(chunk, 4))
            if chunk[0..<4] == [0x64, 0x61, 0x74, 0x61] {
                if length != 0xFFFF_FFFF && length != 0 && offset + 8 + length > size {
                    return "its data chunk runs to byte \(offset + 8 + length), the file has \(size)"
                }
                return nil
            }
            offset += 8 + length + (length & 1)
        }
        return "it has no data chunk"
    }

    private static func littleEndian32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
    }
}
