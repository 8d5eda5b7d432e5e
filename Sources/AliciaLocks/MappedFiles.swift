#if canImport(Glibc)
import Glibc
#endif

/// The process's read-only file mappings, as `/proc/self/maps` and `/proc/self/smaps` list them: to
/// give back the pages of code and tables that were read once (while starting, while loading a
/// library graph) and are not needed again. `MADV_DONTNEED` on a clean private file mapping only
/// drops pages the page cache still holds: what runs again faults back in, without a disk read. A
/// mapping with written pages (RELRO: `Anonymous` above 0 in `smaps`) is never passed to it.
package enum MappedFiles {
    /// A read-only mapping of a file.
    package struct Mapping: Sendable, Equatable {
        package var start: Int
        package var end: Int
        /// `r-xp`; else `r--p`.
        package var executable: Bool
    }

    /// Where each file mapping starts now: what a later `releaseClean(except:)` leaves alone.
    package static func starts() -> Set<Int> {
        guard let maps = fopen("/proc/self/maps", "r") else { return [] }
        defer { fclose(maps) }
        var starts: Set<Int> = []
        var line = [CChar](repeating: 0, count: 4096)
        while fgets(&line, Int32(line.count), maps) != nil {
            if let mapping = mapping(line) { starts.insert(mapping.start) }
        }
        return starts
    }

    /// Drops the pages of every read-only file mapping no byte of which was written, but for those
    /// starting at `kept`; the bytes of mappings released.
    @discardableResult
    package static func releaseClean(except kept: Set<Int> = []) -> Int {
        if let keep = getenv("ALICIA_KEEP_CODE"), String(cString: keep) == "1" { return 0 }
        guard let smaps = fopen("/proc/self/smaps", "r") else { return 0 }
        defer { fclose(smaps) }
        var released = 0
        var candidate: Mapping?
        var line = [CChar](repeating: 0, count: 4096)
        let anonymousZero = Array("Anonymous:".utf8CString.dropLast())
        while fgets(&line, Int32(line.count), smaps) != nil {
            if let found = mapping(line) {
                candidate = kept.contains(found.start) ? nil : found
                continue
            }
            guard let found = candidate, line.starts(with: anonymousZero) else { continue }
            candidate = nil
            // "Anonymous:" then spaces, then the count: released only at "0 kB".
            var i = anonymousZero.count
            while i < line.count, line[i] == 0x20 { i += 1 }
            guard i + 1 < line.count, line[i] == 0x30, line[i + 1] == 0x20,
                  let start = UnsafeMutableRawPointer(bitPattern: found.start) else { continue }
            if madvise(start, found.end - found.start, MADV_DONTNEED) == 0 { released += found.end - found.start }
        }
        return released
    }

    /// `start-end r-xp|r--p offset dev inode /path`, read byte by byte: a process with libcurl loaded
    /// has some 360 mappings (and `smaps` 25 lines each), and splitting them as Swift strings took
    /// 1.5 ms before the first item could play. Nil for anything else (written data, anonymous
    /// memory, [vdso], an `smaps` field line).
    package static func mapping(_ line: [CChar]) -> Mapping? {
        line.withUnsafeBufferPointer { bytes -> Mapping? in
            var i = 0
            func hex() -> Int? {
                var value = 0
                let first = i
                while i < bytes.count, let digit = hexDigit(bytes[i]) {
                    value = value &* 16 &+ digit
                    i += 1
                }
                return i > first && i - first <= 16 ? value : nil
            }
            func skipField() {
                while i < bytes.count, bytes[i] != 0x20, bytes[i] != 0 { i += 1 }
                while i < bytes.count, bytes[i] == 0x20 { i += 1 }
            }
            guard let start = hex(), i < bytes.count, bytes[i] == 0x2D else { return nil }
            i += 1
            guard let end = hex(), end > start, i + 5 < bytes.count, bytes[i] == 0x20 else { return nil }
            // The permissions: "r-xp" or "r--p".
            guard bytes[i + 1] == 0x72, bytes[i + 2] == 0x2D, bytes[i + 3] == 0x78 || bytes[i + 3] == 0x2D,
                  bytes[i + 4] == 0x70, bytes[i + 5] == 0x20 else { return nil }
            let executable = bytes[i + 3] == 0x78
            i += 6
            // Offset, device and inode, then the path, which is a file's.
            for _ in 0..<3 { skipField() }
            guard i < bytes.count, bytes[i] == 0x2F else { return nil }
            return Mapping(start: start, end: end, executable: executable)
        }
    }

    private static func hexDigit(_ byte: CChar) -> Int? {
        switch UInt8(bitPattern: byte) {
        case 0x30...0x39: return Int(byte) - 0x30
        case 0x61...0x66: return Int(byte) - 0x61 + 10
        case 0x41...0x46: return Int(byte) - 0x41 + 10
        default: return nil
        }
    }
}
