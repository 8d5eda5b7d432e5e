import Testing
import AliciaTestSupport
@testable import AliciaAudio

/// Matched loudness in the engine, on a recording sink, over real HTTP (nginx): a player that
/// measures first (the voice notes') is at the target from the first frame; an episode over HTTP
/// stays untouched until its running estimate has 3 s, then settles at the target; cached figures
/// apply at once.
@Suite(.serialized) struct LoudnessEngineTests {
    static let rate = 48_000

    /// The signal 12 dB down: about −25 LUFS.
    static func quiet(_ seed: UInt64) -> SpeechLikeSignal { SpeechLikeSignal(seed: seed) }
    static func scaled(_ samples: [Int16]) -> [Int16] { samples.map { Int16((Double($0) / 4).rounded()) } }

    private func integrated(_ samples: ArraySlice<Int16>) -> Double? {
        let meter = LoudnessMeter(channels: 2, sampleRate: Self.rate)!
        Array(samples).withUnsafeBytes { meter.add($0.baseAddress!, frames: samples.count / 2, type: .int16) }
        return meter.integrated
    }

    /// Plays `item` to the queue's end on a recording sink, matching loudness to −16 LUFS: the
    /// player, every event seen and the samples written.
    private func playOut(_ item: QueueItem, configuration: PlayerConfiguration = PlayerConfiguration()) throws
        -> (player: Player, seen: [PlayerEvent], output: [Int16]) {
        let rig = try FakeSinkRig(prefix: "loudness", configuration: configuration)
        rig.player.setLoudness(.target(-16))
        rig.player.play([item])
        let seen = rig.playOut(block: 4096)
        return (rig.player, seen, try rig.written())
    }

    private func item(_ server: NginxServer, _ samples: [Int16], _ name: String, loudness: LoudnessFigures? = nil) throws -> QueueItem {
        try server.serve(WAVFixture.pcm16File(samples, sampleRate: Self.rate, channels: 2), as: name)
        var item = QueueItem(location: try MediaLocation(server.url("/media/\(name)")), title: name)
        item.loudness = loudness
        return item
    }

    @Test func aPlayerThatMeasuresFirstIsAtTheTargetFromTheFirstFrame() throws {
        let server = try NginxServer()
        defer { server.stop() }
        let note = Self.scaled(SpeechLikeSignal(pauses: [300, 200, 400], seed: 0x4E07).samples)
        var configuration = PlayerConfiguration()
        configuration.measureLoudnessFirst = true
        let (player, seen, output) = try playOut(try item(server, note, "note.wav"), configuration: configuration)
        #expect(seen.contains { if case .loudnessMeasured = $0.kind { true } else { false } })
        #expect(output.count == note.count, "\(output.count / 2) frames out, \(note.count / 2) in")
        let before = try #require(integrated(note[...]))
        let after = try #require(integrated(output[...]))
        #expect(abs(after - -16) < 0.5, "the note came out at \(after) LUFS (was \(before))")
        // One gain from the first frame: the output is the input times a constant (no limiting).
        let ratios = stride(from: 0, to: note.count, by: 997).compactMap { i -> Double? in
            abs(note[i]) > 200 ? Double(output[i]) / Double(note[i]) : nil
        }
        let spread = (ratios.max() ?? 0) - (ratios.min() ?? 0)
        #expect(spread < 0.02, "the gain was not one from the start: \(ratios.min() ?? 0)…\(ratios.max() ?? 0)")
        #expect(player.snapshot().limiterReduction == 0)
    }

    @Test func anEpisodeOverHTTPSettlesAtTheTargetAfterItsFirstSeconds() throws {
        let server = try NginxServer()
        defer { server.stop() }
        let episode = Self.scaled(SpeechLikeSignal(seed: 0xE915).samples)
        let (player, seen, output) = try playOut(try item(server, episode, "episode.wav"))
        #expect(output.count == episode.count)
        // Untouched (0 dB) for the first 3 s: bit for bit.
        #expect(Array(output.prefix(3 * Self.rate * 2)) == Array(episode.prefix(3 * Self.rate * 2)), "changed before the estimate")
        let lastSeconds = try #require(integrated(output.suffix(6 * Self.rate * 2)))
        let inputLast = try #require(integrated(episode.suffix(6 * Self.rate * 2)))
        #expect(abs(lastSeconds - inputLast - (player.snapshot().loudnessGain)) < 0.5, "the last 6 s are not at the gain set")
        // Measured from its first frame to its last: whole figures, for the cache.
        let measured = seen.compactMap { event -> LoudnessFigures? in
            if case .loudnessMeasured(let figures) = event.kind { return figures } else { return nil }
        }
        let whole = try #require(integrated(episode[...]))
        #expect(measured.count == 1 && abs((measured.first?.integrated ?? 0) - whole) < 0.01, "\(measured)")
        #expect(abs(player.snapshot().loudnessGain - (-16 - whole)) < 0.6, "gain \(player.snapshot().loudnessGain) dB for \(whole) LUFS")
    }

    /// Issue 42: the first play of a long local file waited for a whole-file measure (3.2 s for an
    /// hour of MP3). Up to `wholeMeasureLimit` seconds a local file is still measured first (one gain
    /// from its first frame); past it, it starts on the running estimate (untouched for 3 s) and its
    /// measure, made meanwhile, is posted for the next play, never applied partway through this one.
    @Test(arguments: [60.0, 5.0]) func aLocalFileIsMeasuredFirstOnlyUpToTheLimit(limit: Double) throws {
        let directory = try TemporaryDirectory(prefix: "loudness")
        let episode = Self.scaled(SpeechLikeSignal(seed: 0x10C4).samples)
        let path = try directory.write(WAVFixture.pcm16File(episode, sampleRate: Self.rate, channels: 2), as: "episode.wav")
        var configuration = PlayerConfiguration()
        configuration.wholeMeasureLimit = limit
        let (_, seen, output) = try playOut(QueueItem(location: try MediaLocation(path), title: "episode"), configuration: configuration)
        #expect(output.count == episode.count)
        #expect(seen.contains { if case .loudnessMeasured = $0.kind { true } else { false } }, "no measure to keep: \(seen)")
        let head = 3 * Self.rate * 2
        if limit > Double(episode.count / 2) / Double(Self.rate) {
            let ratios = stride(from: 0, to: head, by: 997).compactMap { i -> Double? in
                abs(episode[i]) > 200 ? Double(output[i]) / Double(episode[i]) : nil
            }
            #expect((ratios.max() ?? 0) - (ratios.min() ?? 0) < 0.02 && (ratios.first ?? 1) > 1.5, "not one gain from the first frame: \(ratios.prefix(5))")
        } else {
            #expect(Array(output.prefix(head)) == Array(episode.prefix(head)), "a long file's start waited for, or took, its whole measure")
        }
    }

    @Test func cachedFiguresApplyAtOnce() throws {
        let server = try NginxServer()
        defer { server.stop() }
        let episode = Self.scaled(SpeechLikeSignal(pauses: [300, 500], seed: 0xCAC4).samples)
        let figures = LoudnessFigures(integrated: -28, peak: -20)
        let (player, _, output) = try playOut(try item(server, episode, "episode.wav", loudness: figures))
        let factor = 3.981_071_705_534_973  // +12 dB
        let first = try #require((0..<48_000).first { abs(episode[$0]) > 500 })
        #expect(abs(Double(output[first]) - Double(episode[first]) * factor) <= 1, "not +12 dB from the first frame")
        #expect(player.snapshot().loudnessGain == 12)
    }
}
