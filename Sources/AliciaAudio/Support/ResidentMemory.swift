#if canImport(Glibc)
import Glibc
#endif
import AliciaLocks

/// Gives back the pages of code that ran only while starting.
///
/// Starting maps far more code than playing runs: the loader, libcurl's dependencies (GnuTLS,
/// Kerberos, LDAP), OpenSSL's initialization at `curl_global_init` (libcrypto alone leaves 1.5 MiB
/// of its code resident), libpulse's connect. The kernel maps file pages 64 KiB around each fault,
/// so all of that stays in the process's resident set for good. Once playback has started,
/// `releaseStartupCode()` unmaps every executable file mapping's pages with `MADV_DONTNEED`: the
/// code that keeps running faults straight back in from the page cache (no disk read), the code
/// that ran once stays out. Only read-only executable mappings (`r-xp`) are touched: for a private
/// mapping `MADV_DONTNEED` throws away pages that were written, so relocated data (`r--p` RELRO,
/// `rw-p`) is never passed to it. A debugger's breakpoints (written into code pages) would be lost;
/// `ALICIA_KEEP_CODE=1` turns this off.
public enum ResidentMemory {
    /// Returns the bytes of mappings released (0 when turned off or `/proc/self/maps` is unreadable).
    @discardableResult
    public static func releaseStartupCode() -> Int {
        if let keep = getenv("ALICIA_KEEP_CODE"), String(cString: keep) == "1" { return 0 }
        guard let maps = fopen("/proc/self/maps", "r") else { return 0 }
        defer { fclose(maps) }
        var released = 0
        var line = [CChar](repeating: 0, count: 4096)
        while fgets(&line, Int32(line.count), maps) != nil {
            guard let range = executableFileMapping(line) else { continue }
            guard let start = UnsafeMutableRawPointer(bitPattern: range.start) else { continue }
            if madvise(start, range.end - range.start, MADV_DONTNEED) == 0 { released += range.end - range.start }
        }
        Log.debug(.engine, "released \(released / 1024) KiB of executable mappings' pages")
        return released
    }

    /// `start-end r-xp offset dev inode /path`: the range of a read-only executable mapping of a
    /// file; nil for anything else (data, anonymous memory, [vdso]).
    static func executableFileMapping(_ line: [CChar]) -> (start: Int, end: Int)? {
        guard let mapping = fileMapping(line), mapping.executable else { return nil }
        return (mapping.start, mapping.end)
    }

    /// A read-only mapping of a file, as a line of `/proc/self/maps` (or a header of `smaps`)
    /// describes it.
    struct FileMapping {
        var start: Int
        var end: Int
        /// `r-xp`; else `r--p`.
        var executable: Bool
    }

    /// `start-end r-xp|r--p offset dev inode /path`, read byte by byte: a process with libcurl loaded
    /// has some 360 mappings (and `smaps` 25 lines each), and splitting them as Swift strings took
    /// 1.5 ms before the first item could play. Nil for anything else (written data, anonymous
    /// memory, [vdso], an `smaps` field line).
    static func fileMapping(_ line: [CChar]) -> FileMapping? {
        line.withUnsafeBufferPointer { bytes -> FileMapping? in
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
            return FileMapping(start: start, end: end, executable: executable)
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

    /// After a library graph was loaded on demand (FFmpeg: about a hundred libraries), and once
    /// playing has started: releases the pages the loader read to relocate the libraries and to
    /// resolve their symbols, which their code never reads again: every executable file mapping, and
    /// every read-only file mapping no byte of which was ever written (`Anonymous: 0` in
    /// `/proc/self/smaps`: symbol and relocation tables, constants). A RELRO mapping (written by the
    /// loader, then made read-only) has anonymous pages and is left alone. Returns the bytes of
    /// mappings released.
    @discardableResult
    public static func releaseLoadedLibraryPages() -> Int {
        if let keep = getenv("ALICIA_KEEP_CODE"), String(cString: keep) == "1" { return 0 }
        guard let smaps = fopen("/proc/self/smaps", "r") else { return 0 }
        defer { fclose(smaps) }
        var released = 0
        var candidate: FileMapping?
        var line = [CChar](repeating: 0, count: 4096)
        let anonymousZero = Array("Anonymous:".utf8CString.dropLast())
        while fgets(&line, Int32(line.count), smaps) != nil {
            if let mapping = fileMapping(line) {
                candidate = mapping
                continue
            }
            guard let mapping = candidate, line.starts(with: anonymousZero) else { continue }
            candidate = nil
            // "Anonymous:" then spaces, then the count: released only at "0 kB".
            var i = anonymousZero.count
            while i < line.count, line[i] == 0x20 { i += 1 }
            guard i + 1 < line.count, line[i] == 0x30, line[i + 1] == 0x20,
                  let start = UnsafeMutableRawPointer(bitPattern: mapping.start) else { continue }
            if madvise(start, mapping.end - mapping.start, MADV_DONTNEED) == 0 { released += mapping.end - mapping.start }
        }
        Log.debug(.engine, "released \(released / 1024) KiB of loaded libraries' read-only pages")
        return released
    }
}
