import AliciaBackend
import AliciaDemoBackend
import Testing

/// Alicia's playlists through our client against the demo backend: the shelf, the actions with
/// their refreshed shelf or the backend's own error, and voicing on demand.
@Suite struct PlaylistClientTests {
    private func client(_ backend: DemoBackend) throws -> BackendClient {
        try BackendClient(configuration: BackendConfiguration(baseURL: backend.baseURL, token: backend.token))
    }

    @Test func theShelfHasEpisodesSynthesesAndAWarmingItem() throws {
        let backend = try DemoBackend(token: "t")
        defer { backend.stop() }
        let shelf = try client(backend).playlists()
        #expect(shelf.map(\.name) == ["Drive home", "Bedtime"])
        let letter = try #require(shelf[0].items.first)
        #expect(letter.kind == "synthesis" && letter.chunks.count == 3 && letter.isReady)
        #expect(shelf[0].items[1].isEpisode && shelf[0].items[1].source == "S1E01")
        #expect(shelf[1].warming == 1 && !shelf[1].items[0].isReady)
    }

    @Test func actionsReturnTheRefreshedShelfOrTheBackendsOwnError() throws {
        let backend = try DemoBackend(token: "t")
        defer { backend.stop() }
        let client = try client(backend)
        let created = try client.perform(.create(name: "Walk"))
        let walk = try #require(created.first { $0.name == "Walk" })
        let added = try client.perform(.addEpisode(playlistID: walk.id, label: "S1E02", title: "The Long Way Round", duration: 127,
                                                   audioURL: "/api/audio/s1e02.wav"))
        #expect(added.first { $0.id == walk.id }?.items.map(\.source) == ["S1E02"])
        #expect(throws: BackendError.backend(endpoint: "/api/playlist", message: "no playlist nope")) {
            try client.perform(.delete(playlistID: "nope"))
        }
        let renamed = try client.perform(.rename(playlistID: walk.id, name: "Long walk"))
        #expect(renamed.contains { $0.name == "Long walk" })
        #expect(try client.perform(.delete(playlistID: walk.id)).count == 2)
    }

    @Test func speakingAWarmingTextGoesRenderingStreamingReady() throws {
        let backend = try DemoBackend(token: "t")
        defer { backend.stop() }
        let client = try client(backend)
        let body = try #require(try client.playlists()[1].items[0].body)
        let states = try (0..<3).map { _ in try client.speak(body) }
        #expect(states.map(\.status) == ["rendering", "streaming", "ready"])
        #expect(states[2].chunks.count == 3)
        #expect(try client.speak("   ").status == "empty")
    }

    @Test func aVoiceInTimeListsEachChunkAsItsDelayPassesThenFailsWhereAsked() throws {
        let voicing = DemoBackend.Voicing(chunkDelays: [.zero, .seconds(60)])
        let backend = try DemoBackend(token: "t", faults: .init(voicing: voicing))
        defer { backend.stop() }
        let client = try client(backend)
        let first = try client.speak("A text voiced in time.")
        #expect(first.status == "streaming" && first.chunks.map(\.url) == [DemoBackend.spokenChunkPath(of: "A text voiced in time.", index: 0)])
        #expect(backend.voicingStart(of: "A text voiced in time.") != nil)
        let later = voicing.voiced(after: .seconds(61))
        #expect(later.chunks == 2 && !later.failed)
        let failing = DemoBackend.Voicing(chunkDelays: [.zero, .seconds(2)], failAfter: 1)
        let (before, after) = (failing.voiced(after: .seconds(1)), failing.voiced(after: .seconds(3)))
        #expect(before.chunks == 1 && !before.failed && after.chunks == 1 && after.failed)
        let late = try DemoBackend(token: "t", faults: .init(voicing: DemoBackend.Voicing(chunkDelays: [.seconds(60)])))
        defer { late.stop() }
        #expect(try self.client(late).speak("Not yet.").status == "rendering")
        #expect(throws: DemoBackendError.self) { try DemoBackend(token: "t", faults: .init(voicing: DemoBackend.Voicing(chunkDelays: []))) }
    }
}
