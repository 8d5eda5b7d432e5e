import AliciaDemoBackend
import AliciaTestSupport
import Foundation
import Testing

/// `/api/tracks` and the audio behind it: the contract's shape, and valid, pleasant WAVs.
@Suite("Library")
struct LibraryTests {
    /// An entry as alicia-api.md describes it: only the first four fields are always there.
    struct Track: Decodable {
        let title: String
        let mood: String
        let duration: Double
        let symbol: String
        let fileName: String?
        let season: Int?
        let episode: Int?
        let label: String?
        let series: String?
        let collection: String?
        let collectionTitle: String?
    }

    static func tracks(_ backend: DemoBackend) async throws -> [Track] {
        let result = try await Curl.get(backend, "/api/tracks")
        let transfer = try result.single()
        #expect(transfer.status == 200)
        #expect(transfer.header("content-type")?.hasPrefix("application/json") == true)
        return try JSONDecoder().decode([Track].self, from: Data(result.body))
    }

    @Test("tracks: three or more episodes in two or more collections, one with no audio, one with no season or collection")
    func shape() async throws {
        let backend = try DemoBackend(token: "t")
        defer { backend.stop() }
        let tracks = try await Self.tracks(backend)
        let playable = tracks.filter { $0.fileName != nil }
        #expect(playable.count >= 3)
        #expect(Set(playable.compactMap(\.collection)).count >= 2)
        #expect(tracks.contains { $0.fileName == nil }, "no entry without audio")
        #expect(tracks.contains { $0.season == nil && $0.collection == nil && $0.collectionTitle == nil }, "every entry has a season or collection")
        #expect(Set(tracks.compactMap(\.label)).count == tracks.compactMap(\.label).count, "labels are not unique")
        for track in tracks {
            #expect(!track.title.isEmpty && !track.mood.isEmpty && !track.symbol.isEmpty && track.duration > 0, "\(track)")
            if let fileName = track.fileName {
                #expect(fileName.hasPrefix("/api/audio/") && fileName.hasSuffix(".wav"), "\(fileName)")
            }
            if track.collection != nil {
                #expect(track.collectionTitle != nil, "\(track.title): a collection without its title")
            }
        }
        // Different formats on purpose: both rates and both channel counts appear.
        var formats = Set<String>()
        for track in playable {
            let header = try await Self.header(backend, track)
            formats.insert("\(header.sampleRate)/\(header.channels)")
        }
        #expect(formats.isSuperset(of: ["48000/2", "44100/1"]), "\(formats)")
        #expect(tracks.contains { $0.duration >= 30 * 60 }, "no long episode")
    }

    static func header(_ backend: DemoBackend, _ track: Track) async throws -> WAVHeader {
        let fileName = try #require(track.fileName)
        let result = try await Curl.run([Curl.mediaURL(backend, fileName), "--range", "0-4095"])
        #expect(try result.single().status == 206)
        return try WAVHeader(result.body)
    }

    @Test("every episode's WAV is 16-bit PCM whose length and duration match the header and /api/tracks")
    func validWAVs() async throws {
        let backend = try DemoBackend(token: "t")
        defer { backend.stop() }
        for track in try await Self.tracks(backend) where track.fileName != nil {
            let header = try await Self.header(backend, track)
            #expect(header.formatTag == 1 && header.bitsPerSample == 16, "\(track.title): \(header)")
            #expect([44_100, 48_000].contains(header.sampleRate) && [1, 2].contains(header.channels), "\(track.title): \(header)")
            #expect(header.blockAlign == header.channels * 2 && header.byteRate == header.sampleRate * header.blockAlign)
            #expect(abs(header.duration - track.duration) < 1e-6, "\(track.title): header says \(header.duration) s, tracks \(track.duration) s")
            let head = try await Curl.run(["--head", Curl.mediaURL(backend, track.fileName ?? ""), "--output", "/dev/null"])
            let length = try #require(Int(try head.single().header("content-length") ?? ""))
            #expect(length == header.dataOffset + header.dataSize, "\(track.title)")
            #expect(header.riffSize == length - 8, "\(track.title)")
        }
    }

    @Test("the audio is music: never above -6 dBFS, not silent, no clicks, different for every episode")
    func pleasantAudio() async throws {
        let backend = try DemoBackend(token: "t")
        defer { backend.stop() }
        var fingerprints: [[Int16]] = []
        for track in try await Self.tracks(backend) where track.fileName != nil {
            let header = try await Self.header(backend, track)
            // Two seconds from 20 s in: past the fade-in, where all the parts play.
            let start = header.dataOffset + 20 * header.sampleRate * header.blockAlign
            let end = start + 2 * header.sampleRate * header.blockAlign - 1
            let result = try await Curl.run([Curl.mediaURL(backend, track.fileName ?? ""), "--range", "\(start)-\(end)"])
            let samples = AudioCompare.int16Samples(littleEndian: result.body)
            #expect(samples.count == 2 * header.sampleRate * header.channels)
            let peak = samples.map { abs(Int($0)) }.max() ?? 0
            let rms = (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(1, samples.count))).squareRoot()
            // -6 dBFS is 16423 of 32768.
            #expect(peak <= 16_423, "\(track.title): peak \(peak)")
            #expect(rms > 32_768 * 0.01, "\(track.title): RMS \(rms) is below -40 dBFS")
            // No clicks: the largest step between neighbouring samples of a channel stays small.
            let channels = header.channels
            var largestStep = 0
            for index in channels..<samples.count {
                largestStep = max(largestStep, abs(Int(samples[index]) - Int(samples[index - channels])))
            }
            #expect(largestStep < 3_000, "\(track.title): a step of \(largestStep) between neighbouring samples")
            fingerprints.append(Array(samples.prefix(4_800)))
        }
        #expect(Set(fingerprints.map { $0.description }).count == fingerprints.count, "two episodes sound the same")
    }

    @Test("voice notes are 24 kHz mono 16-bit, 2 to 5 seconds, and sound")
    func voiceNotes() async throws {
        let backend = try DemoBackend(token: "t")
        defer { backend.stop() }
        for number in [1, 2, 3, 50, 100] {
            let result = try await Curl.run([Curl.mediaURL(backend, "/api/audio/voice-\(number).wav")])
            #expect(try result.single().status == 200)
            let header = try WAVHeader(result.body)
            #expect(header.sampleRate == 24_000 && header.channels == 1 && header.bitsPerSample == 16 && header.formatTag == 1)
            #expect((2.0...5.0).contains(header.duration), "voice-\(number): \(header.duration) s")
            #expect(result.body.count == header.dataOffset + header.dataSize)
            let samples = AudioCompare.int16Samples(littleEndian: result.body[header.dataOffset...])
            let peak = samples.map { abs(Int($0)) }.max() ?? 0
            #expect(peak > 3_000 && peak <= 16_423, "voice-\(number): peak \(peak)")
        }
    }

    @Test("the same bytes on every request and every backend: the audio is deterministic")
    func deterministic() async throws {
        let first = try DemoBackend(token: "t")
        let second = try DemoBackend(token: "t")
        defer {
            first.stop()
            second.stop()
        }
        let range = ["--range", "5000000-5099999"]
        let a = try await Curl.run([Curl.mediaURL(first, "/api/audio/s1e01.wav")] + range)
        let b = try await Curl.run([Curl.mediaURL(second, "/api/audio/s1e01.wav")] + range)
        #expect(a.body.count == 100_000)
        #expect(a.body == b.body)
    }
}
