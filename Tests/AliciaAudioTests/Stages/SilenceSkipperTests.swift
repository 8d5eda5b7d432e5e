import Testing
import AliciaTestSupport
@testable import AliciaAudio

/// Skip silence on its own and in the engine: pauses shortened by what the rules predict, bursts
/// (speech) bit for bit, short pauses untouched, positions exact through the frame map.
@Suite struct SilenceSkipperTests {
    static let signal = SpeechLikeSignal()
    static let format = AudioFormat(sampleRate: 48_000, channels: 2, sampleType: .int16, frames: nil)

    /// Runs the signal through a skipper in feeder-sized chunks; the output and the cuts.
    private func skip(_ level: SilenceSkipping, chunk: Int = 2048) -> (output: [Int16], cuts: [SilenceSkipper.SourceCut]) {
        let skipper = SilenceSkipper(format: Self.format, level: level, pieceFrames: 2048)
        skipper.restart(at: 0, newItem: true)
        var output: [Int16] = []
        nonisolated(unsafe) var cuts: [SilenceSkipper.SourceCut] = []
        skipper.onCut = { cuts.append($0) }
        let collect: (UnsafeRawBufferPointer) -> SinkResult = { bytes in
            output += Array(bytes.bindMemory(to: Int16.self))
            return .done
        }
        Self.signal.samples.withUnsafeBytes { all in
            var offset = 0
            while offset < all.count {
                let end = min(all.count, offset + chunk * 4)
                _ = skipper.process(UnsafeRawBufferPointer(rebasing: all[offset..<end]), emit: collect)
                offset = end
            }
        }
        _ = skipper.flush(emit: collect)
        return (output, cuts)
    }

    /// Checks `output` against the signal (`SpeechLikeSignal.problems`), and that its length is
    /// the signal's less what was cut.
    static func expectShortened(_ output: [Int16], level: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let (problems, saved) = signal.problems(in: output, level: level)
        #expect(problems.isEmpty, "\(problems)", sourceLocation: sourceLocation)
        #expect(output.count / 2 == signal.frameCount - saved, sourceLocation: sourceLocation)
    }

    @Test(arguments: ["mild", "medium", "strong"])
    func pausesAreShortenedByTheRulesAndSpeechIsUntouched(_ level: String) {
        let (output, cuts) = skip(SilenceSkipping(rawValue: level)!)
        Self.expectShortened(output, level: level)
        let cutFrames = cuts.reduce(0) { $0 + Int($1.to - $1.from) }
        #expect(output.count / 2 + cutFrames == Self.signal.frameCount, "the cuts do not account for what is missing")
        let long = Self.signal.pauses.filter { Double($0.frames) / 48_000 >= SkipSilenceRules.levels[level]!.minimum }
        #expect(cuts.count == long.count)
        // Each cut lies inside a pause.
        for cut in cuts {
            #expect(Self.signal.pauses.contains { Int64($0.start) < cut.from && cut.to < Int64($0.start + $0.frames) }, "\(cut)")
        }
    }

    @Test func theChunkSizeChangesNothing() {
        #expect(skip(.medium, chunk: 2048).output == skip(.medium, chunk: 333).output)
    }

    @Test func theKeptPartIsAttenuatedNotZeroedAndFades() {
        let (output, _) = skip(.mild)
        let signal = Self.signal
        let starts = signal.burstStarts(in: output).map { $0! }
        // The 3 s pause (the 7th): 1 s kept, 0.5 s each side of the cut.
        let index = signal.pauses.firstIndex { $0.frames == 3 * 48_000 }!
        let from = starts[index] + signal.bursts[index].frames
        let kept = Array(output[from * 2..<starts[index + 1] * 2])
        #expect(kept.count / 2 == 48_000)
        #expect(kept.contains { $0 != 0 }, "the kept part is zeroed")
        // Between the fades, at −20 dB: the faint noise (±30) becomes ±3.
        let middle = kept[(2400 * 2)..<(45_600 * 2)]
        #expect(middle.allSatisfy { abs(Int($0)) <= 3 }, "the kept part is not attenuated")
        #expect(kept.prefix(2).allSatisfy { abs(Int($0)) >= 0 })
    }

    @Test func offPassesEverythingThroughAsItIs() {
        let (output, cuts) = skip(.off)
        #expect(output == Self.signal.samples)
        #expect(cuts.isEmpty)
    }

    @Test func theNoiseFloorSetsTheThresholdWithinItsBounds() {
        var floor = NoiseFloor(sampleRate: 48_000)
        #expect(floor.thresholdDecibels == -40)
        // A noisy recording: the floor at −45 dBFS puts the threshold at −35.
        for _ in 0..<48_000 { _ = floor.add(0.0056) }
        #expect(abs(floor.thresholdDecibels - -35) <= 1)
        floor.reset()
        // Hiss at −25 dBFS: never above −30.
        for _ in 0..<48_000 { _ = floor.add(0.056) }
        #expect(floor.thresholdDecibels == -30)
    }

    // MARK: In the engine

    @Test func theEngineShortensPausesAndKeepsPositionsExact() throws {
        let directory = try TemporaryDirectory(prefix: "skip")
        let path = try directory.write(Self.signal.wav, as: "speech.wav")
        let sinks = RecordingSinks()
        let player = Player(configuration: PlayerConfiguration(), makeSink: sinks.maker)
        let events = player.subscribe()
        player.setSilenceSkipping(.medium)
        player.play([QueueItem(location: try MediaLocation(path), title: "speech")])
        let sink = try #require(sinks.current())

        // Play the sink up to 100 frames into the 8th burst, where the skipper alone puts it (the
        // chunk size changes nothing; the output is checked against the signal below).
        let bursts = Self.signal.bursts
        let alone = try #require(Self.signal.burstStarts(in: skip(.medium).output)[7])
        var target: Int64? = Int64(alone + 100)
        var skipped: [PlayerEvent.Kind] = []
        var ended = false
        let deadline = ContinuousClock.now + .seconds(60)
        while !ended && ContinuousClock.now < deadline {
            let played = sink.snapshot.played
            _ = sink.waitForWritten(played + 1, timeout: .milliseconds(200))
            if let goal = target, played < goal {
                sink.play(frames: min(512, goal - played))
                if sink.snapshot.played == goal {
                    let inside = player.snapshot()
                    #expect(inside.positionFrames == Int64(bursts[7].start + 100), "the position is not the source frame heard")
                    target = Int64.max
                }
            } else {
                sink.play(frames: 512)
            }
            for event in events.drain() {
                if case .silenceSkipped = event.kind { skipped.append(event.kind) }
                if event.kind == .queueEnded { ended = true }
            }
        }
        #expect(ended, "the queue never ended")
        #expect(target == Int64.max, "never reached the 8th burst")
        let output = AudioCompare.int16Samples(littleEndian: sink.bytes)
        Self.expectShortened(output, level: "medium")
        let snapshot = player.snapshot()
        #expect(snapshot.positionFrames == Int64(Self.signal.frameCount), "the position after the item is not its duration")
        let long = Self.signal.pauses.filter { Double($0.frames) / 48_000 >= 0.3 }
        #expect(skipped.count == long.count, "\(skipped)")
        let saved = Double(Self.signal.frameCount - output.count / 2) / 48_000
        #expect(abs(snapshot.silenceSaved - saved) < 0.001, "\(snapshot.silenceSaved) s saved reported, \(saved) s cut")
        #expect(abs(snapshot.silenceSavedTotal - saved) < 0.001)
        #expect(snapshot.silenceSkipping == .medium)
    }
}
