import AliciaSession
import AliciaBackend
import AliciaTerminal
import AliciaLocks

/// `alicia-player tracks`: the library by collection, one aligned line per episode:
/// index, label, title, mood, duration (or "no audio yet"), and where it was left (`12:03 of 45:00`)
/// or `✓` once played.
package enum TrackList {
    package typealias Progress = [String: (position: Double, played: Bool)]

    /// `unavailable`: episodes (by label, else title) that cannot be played now (offline, not downloaded).
    package static func render(_ library: Library, progress: Progress = [:], unavailable: Set<String> = []) -> String {
        guard !library.isEmpty else { return "The backend's library is empty.\n" }
        let widths = columnWidths(library.entries)
        var out = ""
        for shelf in library.shelves {
            out += shelf.title + "\n"
            for entry in shelf.entries {
                out += line(entry, widths: widths, hasAudioMark: true, progress: progress)
                    + (unavailable.contains(entry.episode.label ?? entry.episode.title) ? "  (not downloaded, offline)" : "") + "\n"
            }
        }
        return out
    }

    package static func lines(_ entries: [Library.Entry], hasAudioMark: Bool) -> [String] {
        let widths = columnWidths(entries)
        return entries.map { line($0, widths: widths, hasAudioMark: hasAudioMark) }
    }

    private struct Widths { var index = 1, label = 1, title = 1, mood = 1 }

    private static func columnWidths(_ entries: [Library.Entry]) -> Widths {
        var widths = Widths()
        for entry in entries {
            widths.index = max(widths.index, String(entry.index).count)
            widths.label = max(widths.label, DisplayWidth.of(entry.episode.label ?? "—"))
            widths.title = min(48, max(widths.title, DisplayWidth.of(entry.episode.title)))
            widths.mood = min(28, max(widths.mood, DisplayWidth.of(entry.episode.mood)))
        }
        return widths
    }

    private static func line(_ entry: Library.Entry, widths: Widths, hasAudioMark: Bool, progress: Progress = [:]) -> String {
        let episode = entry.episode
        let index = String(repeating: " ", count: widths.index - String(entry.index).count) + String(entry.index)
        var time = episode.knownLength.map(TimeSpec.clock) ?? "no audio yet"
        if let saved = episode.label.flatMap({ progress[$0] }) {
            if saved.played {
                time += "  ✓"
            } else if saved.position > 0 {
                time = TimeSpec.clock(saved.position) + " of " + time
            }
        }
        return "  " + index + "  " + DisplayWidth.pad(episode.label ?? "—", to: widths.label)
            + "  " + DisplayWidth.pad(episode.title, to: widths.title)
            + "  " + DisplayWidth.pad(episode.mood, to: widths.mood)
            + "  " + time
    }
}
