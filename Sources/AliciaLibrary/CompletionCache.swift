#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaBackend
import AliciaLocks

/// What the shell completions offer for references, written by the last `tracks` and `playlists`
/// so that completing never waits on the network: `$XDG_CACHE_HOME/alicia-player/completion/`
/// (default `~/.cache/alicia-player/completion/`), plain files of one word a line that a shell
/// reads without running the player:
/// - `labels`: the episodes' labels (`S1E01`);
/// - `titles`: their titles;
/// - `playlists`: the playlists' names (completed as `playlist:NAME`).
/// No token or URL is written. A cache that cannot be written only costs completions, so it is
/// said in the log, not on the terminal.
package enum CompletionCache {
    package static func directory(environment: [String: String]) -> String? {
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") { return cache + "/alicia-player/completion" }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return home + "/.cache/alicia-player/completion"
    }

    package static func record(_ library: Library, environment: [String: String] = BackendSession.environment()) {
        let episodes = library.entries.map(\.episode)
        write(lines(episodes.compactMap(\.label)), named: "labels", environment: environment)
        write(lines(episodes.map(\.title)), named: "titles", environment: environment)
    }

    package static func record(_ playlists: [Playlist], environment: [String: String] = BackendSession.environment()) {
        write(lines(playlists.map(\.name)), named: "playlists", environment: environment)
    }

    /// One a line, in order, without repeats; a line break inside a name would split it, so it
    /// becomes a space.
    package static func lines(_ words: [String]) -> String {
        var seen: Set<String> = []
        var out = ""
        for word in words {
            let line = String(word.map { $0.isNewline ? " " : $0 })
            guard !line.isEmpty, seen.insert(line).inserted else { continue }
            out += line + "\n"
        }
        return out
    }

    private static func write(_ text: String, named name: String, environment: [String: String]) {
        guard let directory = directory(environment: environment) else { return }
        if let failure = TextFile.write(text, to: directory + "/" + name, mode: 0o600) {
            Log.info(.cli, "completion cache not written: \(failure)")
        }
    }
}
