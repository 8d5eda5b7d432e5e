import AliciaAudio
import AliciaBackend
import AliciaLocks
import AliciaSession
import AliciaLibrary

/// Alicia's readings in the Studio: today's briefing (a line at the top when it is ready, `b` plays
/// it, `B` its playlist) and a shelf of her syntheses and reflections after the playlists. Asked on
/// a thread of its own when the library loads (an older backend answers 404: no shelf, no line);
/// a reading plays as made, or is voiced on a thread of its own and plays once it can.
extension StudioApp {
    /// How a reading's entry in the list is told from an episode's: `reading:` and its reference.
    package static let readingPrefix = "reading:"

    /// What the backend has to read: asked once the library is there.
    package func refreshReadings() {
        guard let backend = setup.backend else { return }
        let inbox = self.inbox
        onBackendThread("alicia-readings", configuration: backend.client.configuration) { client throws(BackendError) in
            // Each on its own: a backend may have some of them (404 for the rest).
            let briefing = try? client.morningBriefing()
            let syntheses = (try? client.syntheses()) ?? []
            let reflections = (try? client.reflections()) ?? []
            inbox.withLock { $0.readings = ReadingShelf(briefing: briefing, syntheses: syntheses, reflections: reflections) }
        } failed: { _ in }
    }

    /// The shelf as list entries: the briefing when it is ready, her syntheses, her reflections.
    package func readingEntries(_ shelf: ReadingShelf) -> [Episode] {
        var entries: [Episode] = []
        func entry(_ title: String, _ mood: String, _ duration: Double, _ reference: String) {
            entries.append(Episode(title: title, mood: mood, duration: duration, symbol: "text.bubble",
                                   fileName: Self.readingPrefix + reference, collection: "readings", collectionTitle: "Her readings"))
        }
        if let briefing = shelf.briefing, briefing.isPlayable {
            entry(briefing.title ?? "Morning briefing", "today's briefing", briefing.duration ?? 0, Readings.briefingReference)
        }
        for synthesis in shelf.syntheses {
            entry(synthesis.title, synthesis.hasReading ? "synthesis" : "synthesis · voiced when played",
                  synthesis.speech?.duration ?? 0, Readings.synthesisPrefix + synthesis.title)
        }
        if !shelf.reflections.isEmpty {
            entry("Her reflections", "\(shelf.reflections.count) reflection\(shelf.reflections.count == 1 ? "" : "s")", 0,
                  Readings.reflectionsReference)
        }
        return entries
    }

    /// The reading a list entry stands for, if it stands for one: its reference.
    package func reading(for entry: Library.Entry) -> String? {
        guard let fileName = entry.episode.fileName, fileName.hasPrefix(Self.readingPrefix) else { return nil }
        return String(fileName.dropFirst(Self.readingPrefix.count))
    }

    /// Plays a reading (`briefing`, `synthesis:TITLE`, `reflections`): made ones at once, others
    /// once voiced, on a thread of its own (the Studio never waits for a voice).
    package func playReading(_ reference: String, title: String) {
        guard let backend = setup.backend else { return }
        setStatus("\(title): getting it ready…")
        let inbox = self.inbox
        let quitting = self.quitting
        onBackendThread("alicia-reading", configuration: backend.client.configuration) { client throws(BackendError) in
            switch Readings.items(reference, client: client, stop: { quitting.isSet }) {
            case .success(let items): inbox.withLock { $0.readingItems = items }
            case .failure(let problem): inbox.withLock { $0.error = problem.message }
            }
        } failed: { error in
            inbox.withLock { $0.error = error.message }
        }
    }

    /// At the end of one of her episodes: the app's next episode (the same series' next, or the
    /// named collection's), offered on the status line; `N` plays it.
    package func offerNextEpisode(after label: String) {
        let episodes = model.library.entries.map(\.episode)
        guard let heard = episodes.first(where: { $0.label == label }), let next = NextEpisode.after(heard, in: episodes),
              let entry = model.library.entries.first(where: { $0.episode == next }) else { return }
        model.nextEpisode = entry
        setStatus("Next episode: \(next.label.map { $0 + " · " } ?? "")\(next.title) · N plays it")
    }

    /// `N`: the next episode offered (after the one heard last, when none was offered yet).
    package func playNextEpisode() {
        if model.nextEpisode == nil, let backend = setup.backend, let library = try? backend.library(),
           let next = NextEpisode.find(in: library, client: backend.client, positions: session.positions) {
            model.nextEpisode = model.library.entries.first { $0.episode == next }
        }
        guard let entry = model.nextEpisode else { return setStatus("no next episode: nothing heard yet is followed by another") }
        model.nextEpisode = nil
        play(entry)
    }

    /// `b`: today's briefing; `B`: the playlist it belongs to.
    package func playBriefing(playlist: Bool) {
        guard let briefing = readingShelf?.briefing else { return setStatus("no briefing today (or not asked yet)") }
        guard playlist else {
            guard briefing.isPlayable else {
                return setStatus(briefing.status == .preparing ? "today's briefing is still being prepared" : "no briefing today")
            }
            return playReading(Readings.briefingReference, title: briefing.title ?? "Today's briefing")
        }
        guard let id = briefing.playlistID, let found = playlists.first(where: { $0.id == id.text }) else {
            return setStatus("today's briefing has no playlist")
        }
        guard let items = playlistItems(found), let first = items.first else { return }
        session.perform(.load(LoadPlan(items)))
        model.nowPlaying = nowPlaying(first)
    }
}

/// What the backend has to read, as last asked.
package struct ReadingShelf: Sendable {
    package var briefing: MorningBriefing?
    package var syntheses: [Synthesis]
    package var reflections: [Reflection]
}
