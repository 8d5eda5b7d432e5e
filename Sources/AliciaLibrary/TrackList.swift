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

    /// The library in words, for screen readers (`tracks --accessible`): a line per shelf, then
    /// one sentence an episode, numbered as `play` takes them: `3. Slow Tide, S01E02, calm,
    /// 45:00, left at 12:03`. No columns, no marks.
    package static func words(_ library: Library, progress: Progress = [:], unavailable: Set<String> = []) -> String {
        guard !library.isEmpty else { return "The backend's library is empty.\n" }
        var out = ""
        for shelf in library.shelves {
            out += "\(shelf.title), \(shelf.entries.count) episode\(shelf.entries.count == 1 ? "" : "s"):\n"
            for entry in shelf.entries {
                let episode = entry.episode
                var parts = [episode.title]
                if let label = episode.label { parts.append(label) }
                if !episode.mood.isEmpty { parts.append(episode.mood) }
                parts.append(episode.hasAudio ? TimeSpec.clock(episode.duration) : "no audio yet")
                if let saved = episode.label.flatMap({ progress[$0] }) {
                    if saved.played { parts.append("played") } else if saved.position > 0 { parts.append("left at " + TimeSpec.clock(saved.position)) }
                }
                if unavailable.contains(episode.label ?? episode.title) { parts.append("unavailable offline") }
                out += "\(entry.index). " + parts.joined(separator: ", ") + "\n"
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
