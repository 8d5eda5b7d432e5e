#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaBackend
import AliciaCache
import AliciaSession
import AliciaTerminal
import AliciaLocks
import AliciaLibrary
import AliciaHost

/// `alicia-player cache` (what is downloaded: title, size, played), `cache --max-size SIZE` (the
/// bound, kept in the config file as `cache_max_size`), `cache clear [REF…]`.
enum CacheCommand {
    static func run(_ options: CacheOptions) -> Int32 {
        guard let cache = OfflineCache.openOrSay() else { return ExitCode.failure }
        if let size = options.maxSize {
            do {
                let path = try ConfigurationLoader.setFileValue("cache_max_size", to: size, environment: BackendSession.environment())
                Console.out("the cache's bound is \(ByteSize.format(ByteSize.parse(size) ?? 0)) (kept in \(path))\n")
            } catch {
                Console.fail(error.message)
                return ExitCode.failure
            }
            let limit = ByteSize.parse(size) ?? CachePolicy.defaultMaximumSize
            for entry in cache.evict(limit: limit, played: CachePolicy.playedKeys(), protected: []) {
                Console.out("removed \(entry.label ?? entry.title) (\(ByteSize.format(entry.size)))\n")
            }
            return ExitCode.success
        }
        if options.clear {
            return clear(options.references, cache: cache)
        }
        list(cache)
        return ExitCode.success
    }

    private static func list(_ cache: MediaCache) {
        let entries = cache.entries()
        let limit = CachePolicy.maximumSize()
        let total = entries.reduce(Int64(0)) { $0 + $1.size }
        guard !entries.isEmpty else {
            Console.out("Nothing downloaded (bound \(ByteSize.format(limit)), in \(cache.directory)).\n")
            return
        }
        let played = CachePolicy.playedKeys()
        let labelWidth = entries.map { DisplayWidth.of($0.label ?? "—") }.max() ?? 1
        let titleWidth = min(48, entries.map { DisplayWidth.of($0.title) }.max() ?? 1)
        for entry in entries {
            var line = "  " + DisplayWidth.pad(entry.label ?? "—", to: labelWidth) + "  " + DisplayWidth.pad(entry.title, to: titleWidth)
                + "  " + ByteSize.format(entry.size)
            if played.contains(entry.key) { line += "  ✓ played" }
            if entry.pinned { line += "  pinned" }
            Console.out(line + "\n")
        }
        Console.out("\(entries.count) file\(entries.count == 1 ? "" : "s"), \(ByteSize.format(total)) of \(ByteSize.format(limit)), in \(cache.directory)\n")
    }

    /// Removes the files `references` name (a label, a title piece, a media path), or everything.
    private static func clear(_ references: [String], cache: MediaCache) -> Int32 {
        let entries = cache.entries()
        var chosen: [CacheEntry] = []
        if references.isEmpty {
            chosen = entries
            cache.removeParts()
        }
        for reference in references {
            let wanted = reference.lowercased()
            let matches = entries.filter {
                $0.key.lowercased() == wanted || $0.label?.lowercased() == wanted
            }
            let pieces = matches.isEmpty ? entries.filter { $0.title.lowercased().contains(wanted) } : matches
            guard !pieces.isEmpty else {
                Console.fail("nothing cached matches '\(reference)' (`alicia-player cache` lists what is)")
                return ExitCode.failure
            }
            chosen += pieces
        }
        var status = ExitCode.success
        for entry in chosen {
            switch cache.remove(entry) {
            case .removed:
                Console.out("removed \(entry.label ?? entry.title) (\(ByteSize.format(entry.size)))\n")
            case .inUse:
                Console.fail("\(entry.label ?? entry.title) is queued in a running player or downloading: kept")
                status = ExitCode.failure
            }
        }
        return status
    }
}
