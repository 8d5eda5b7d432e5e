#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaLocks
import AliciaSession
import AliciaLibrary

/// What the Studio was playing, kept as it changes so that the next Studio opens on it ("continue
/// listening"): the queue's entries (by the references a saved queue uses: labels, paths, never a
/// token), which one was heard and where. In `$XDG_STATE_HOME/alicia-player/continue.m3u8` (default
/// `~/.local/state/alicia-player/`), an M3U8 that `alicia-player queue` plays too, with two lines
/// of its own (`#ALICIA-CURRENT:N`, `#ALICIA-POSITION:SECONDS`) that other players skip as comments.
package struct ContinueListening: Equatable {
    package struct Entry: Equatable {
        package var reference: String
        package var title: String
        package var duration: Double?
    }

    /// The backend the queue's labels are of (its host and port, as the header names it): a queue
    /// is taken up again only against the same backend.
    package var backend: String
    package var entries: [Entry]
    /// Index into `entries` of the one heard last.
    package var current: Int
    /// Seconds into it.
    package var position: Double

    /// The file's path: beside `ListenerState`'s file at `statePath`.
    package static func path(besides statePath: String) -> String {
        String(statePath[..<(statePath.lastIndex(of: "/") ?? statePath.endIndex)]) + "/continue.m3u8"
    }

    /// The session's queue now; nil when there is nothing to come back to.
    package static func of(_ view: SessionView, backend: String) -> ContinueListening? {
        let queue = view.queue
        guard !queue.isEmpty else { return nil }
        let snapshot = view.snapshot()
        guard let heard = snapshot.entry ?? queue.currentID, let current = queue.index(of: heard) else { return nil }
        let entries = queue.entries.map { entry in
            let item = entry.item
            return Entry(reference: item.reference ?? item.label ?? PositionStore.key(label: nil, location: item.location),
                         title: item.title, duration: item.duration)
        }
        let position = snapshot.entry == heard ? snapshot.position : 0
        return ContinueListening(backend: backend, entries: entries, current: current, position: max(0, position))
    }

    package func rendered() -> String {
        let list = QueueFile.m3u8(entries.map { ($0.reference, $0.title, $0.duration) })
        // Whole tenths: the file changes when the position moves, not with every frame.
        let tenths = (position * 10).rounded() / 10
        let backendLine = backend.contains("\n") ? "" : "#ALICIA-BACKEND:\(backend)\n"
        return "#EXTM3U\n" + backendLine + "#ALICIA-CURRENT:\(current)\n#ALICIA-POSITION:\(tenths)\n" + list.dropFirst("#EXTM3U\n".count)
    }

    package static func parse(_ text: String) -> ContinueListening? {
        let file = QueueFile.parse(Array(text.utf8))
        var current = 0
        var position = 0.0
        var backend = ""
        for line in text.split(separator: "\n") {
            if line.hasPrefix("#ALICIA-BACKEND:") { backend = String(line.dropFirst("#ALICIA-BACKEND:".count)) }
            if line.hasPrefix("#ALICIA-CURRENT:"), let value = Int(line.dropFirst("#ALICIA-CURRENT:".count)) { current = value }
            if line.hasPrefix("#ALICIA-POSITION:"), let value = Double(line.dropFirst("#ALICIA-POSITION:".count)),
               value.isFinite, value >= 0 { position = value }
        }
        let entries = file.lines.map { Entry(reference: $0.reference, title: $0.title ?? $0.reference, duration: $0.duration) }
        guard entries.indices.contains(current) else { return nil }
        return ContinueListening(backend: backend, entries: entries, current: current, position: position)
    }

    /// Whether `other` differs enough to be written: another queue or entry, or the position
    /// moved by `step` seconds (or at all, when `exact`: paused, quitting).
    package func differs(from other: ContinueListening?, step: Double, exact: Bool) -> Bool {
        guard let other, other.entries == entries, other.current == current, other.backend == backend else { return true }
        let moved = abs(other.position - position)
        return exact ? moved >= 0.1 : moved >= step
    }

    package static func load(from path: String) -> ContinueListening? {
        AtomicFile.text(path, limit: 4 * 1024 * 1024).flatMap(parse)
    }

    /// Writes it atomically (`AtomicFile`): a crash or a second Studio never leaves half a file.
    package func save(to path: String) -> String? {
        guard case .failure(let failure) = AtomicFile.write(Array(rendered().utf8), to: path, makeDirectories: true) else { return nil }
        return failure.message
    }

}
