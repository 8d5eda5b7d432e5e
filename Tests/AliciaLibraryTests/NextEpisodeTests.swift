import Testing
import AliciaBackend
import AliciaSession
@testable import AliciaLibrary

/// The app's "Next episode": the series' next by (season, episode), or the named collection's next
/// number; after the episode heard last, the newer of the player's record and the backend's.
@Suite struct NextEpisodeTests {
    static func episode(_ label: String, season: Int, _ number: Int?, collection: String? = nil, audio: Bool = true,
                        series: String = "Alicia") -> Episode {
        Episode(title: "Title of \(label)", duration: 60, fileName: audio ? "/api/audio/\(label).wav" : nil, season: season,
                episode: number, label: label, series: series, collection: collection)
    }

    static let library = [
        episode("S1E01", season: 1, 1), episode("S1E02", season: 1, 2), episode("S1E03", season: 1, 3, audio: false),
        episode("S1E04", season: 1, 4), episode("S2E01", season: 2, 1), episode("S2E02", season: 2, 2),
        episode("NIGHTS-1", season: 0, 1, collection: "NIGHTS"), episode("NIGHTS-2", season: 0, 2, collection: "NIGHTS"),
        episode("OTHER-S1E05", season: 1, 5, series: "Another show"),
    ]

    @Test(arguments: [("S1E01", "S1E02"), ("S1E02", "S1E04"), ("S1E04", "S2E01"), ("S2E01", "S2E02"), ("NIGHTS-1", "NIGHTS-2")])
    func theNextOneByTheAppsRule(heard: String, expected: String) throws {
        let episode = try #require(Self.library.first { $0.label == heard })
        #expect(NextEpisode.after(episode, in: Self.library)?.label == expected)
    }

    @Test func theLastOfItsRunHasNone() throws {
        for label in ["S2E02", "NIGHTS-2"] {
            let episode = try #require(Self.library.first { $0.label == label })
            #expect(NextEpisode.after(episode, in: Self.library) == nil, "\(label)")
        }
    }

    @Test func theOneHeardLastIsTheNewerOfOursAndTheBackends() {
        let positions = ["S1E01": SavedPosition(position: 30, duration: 60, played: false, updated: 1_000),
                         "/tmp/a.wav": SavedPosition(position: 3, duration: 9, played: false, updated: 5_000)]
        let labels = Set(Self.library.compactMap(\.label))
        #expect(NextEpisode.lastHeard(positions: positions, latest: nil, labels: labels) == "S1E01", "a path is not one of hers")
        #expect(NextEpisode.lastHeard(positions: positions, latest: ("episode:S2E01", 2_000), labels: labels) == "S2E01")
        #expect(NextEpisode.lastHeard(positions: positions, latest: ("S2E01", 500), labels: labels) == "S1E01")
        #expect(NextEpisode.lastHeard(positions: [:], latest: ("NIGHTS-1", 1), labels: labels) == "NIGHTS-1")
        #expect(NextEpisode.lastHeard(positions: [:], latest: ("GONE", 1), labels: labels) == nil)
    }
}
