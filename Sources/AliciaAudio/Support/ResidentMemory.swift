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
        guard let mapping = MappedFiles.mapping(line), mapping.executable else { return nil }
        return (mapping.start, mapping.end)
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
        let released = MappedFiles.releaseClean()
        Log.debug(.engine, "released \(released / 1024) KiB of loaded libraries' read-only pages")
        return released
    }
}
