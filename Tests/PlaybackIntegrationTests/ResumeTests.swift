import AliciaTestSupport
import Foundation
import Testing

/// Resume positions: a played episode picks up where it was left, across quits and crashes, and
/// instances share one state file without losing each other's positions.
@Suite("Resume positions")
struct ResumeTests {
    static let long = WAVFixture(seconds: 20, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 0x5E5)

    /// Starts a player, waits until the sink has `seconds` of audio, sends `signal`. `gated`: it
    /// takes a place of the players' gate for itself (false: the caller holds one).
    private func play(_ arguments: [String], state: String, capture: PipeSinkCapture, for seconds: Double,
                      signal: Int32, gated: Bool = true) async throws -> PlayerResult {
        if gated { await Playback.gate.enter() }
        let child: ChildProcess
        do {
            // Its debug log beside the state: what a failure shows of what the player was doing.
            child = try PlayerProcess.start(arguments + ["--device", capture.sinkName],
                                            environment: ["XDG_STATE_HOME": state, "ALICIA_LOG": "debug",
                                                          "ALICIA_LOG_FILE": state + "/player.log"])
        } catch {
            if gated { await Playback.gate.leave() }
            throw error
        }
        // Sent from the capture's own thread the moment `seconds` are heard: an await here could
        // resume seconds late on a loaded suite's busy cooperative pool.
        capture.whenAudible(frames: Int(seconds * 48_000)) { child.send(signal) }
        let outcome = await child.wait(timeout: .seconds(90))
        if gated { await Playback.gate.leave() }
        return PlayerResult(outcome)
    }

    /// The saved positions file, as the test reads it (Foundation's JSON, not ours), positions in
    /// seconds.
    private func saved(_ state: String) throws -> [String: [String: Any]] {
        let data = try Data(contentsOf: URL(fileURLWithPath: state + "/alicia-player/positions.json"))
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        var positions = object?["positions"] as? [String: [String: Any]] ?? [:]
        for (key, fields) in positions {
            if let milliseconds = (fields["position_ms"] as? NSNumber)?.doubleValue {
                positions[key]?["position"] = milliseconds / 1000
            }
        }
        return positions
    }

    /// Where in `source` the capture's audio begins (frames), found by its first 64 samples.
    private func startFrame(of captured: [Int16], in source: [Int16]) -> Int? {
        guard captured.count >= 64 else { return nil }
        let probe = Array(captured.prefix(64))
        var frame = 0
        while (frame + 32) * 2 <= source.count {
            if source[(frame * 2)..<(frame * 2 + 64)].elementsEqual(probe) { return frame }
            frame += 1
        }
        return nil
    }

    /// One past the frame of `source` the capture's audio ends on, found by its last 64 samples.
    private func endFrame(of captured: [Int16], in source: [Int16]) -> Int? {
        guard captured.count >= 64 else { return nil }
        let probe = Array(captured.suffix(64))
        // The run started at the file's first frame, so the end is where the capture's length puts
        // it or, after a gap, before: search back from there (the file's noise never repeats 32 frames).
        var frame = min(captured.count / 2 - 32, source.count / 2 - 32)
        while frame >= 0 {
            if source[(frame * 2)..<(frame * 2 + 64)].elementsEqual(probe) { return frame + 32 }
            frame -= 1
        }
        return nil
    }

    @Test("quit while playing, play again: it goes on from the frame where it stopped")
    func resumeAfterQuit() async throws {
        // One place of the gate for the three runs: waiting for one between them on a busy run of
        // the suite took over a minute once, and a minute away makes a resume step back 3 s.
        try await Playback.gated { try await resumeAfterQuitRuns() }
    }

    private func resumeAfterQuitRuns() async throws {
        let directory = try TemporaryDirectory(prefix: "resume")
        let state = try PlayerProcess.freshStateDirectory()
        let path = try directory.write(Self.long.bytes, as: "long.wav")
        let first = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        let stopped = try await play(["play", path], state: state, capture: first, for: 2, signal: SIGTERM, gated: false)
        #expect(stopped.status == 143, "\(stopped)")
        // Where the first run's audio ends in the file, found by its last frames: not its length,
        // which counts a gap of silence (an underrun of a slowed player, under a sanitizer) as heard.
        let heardAudio = AudioCompare.trimmingSilentFrames(await first.finishInt16(), channels: 2)
        let heard = try #require(endFrame(of: heardAudio, in: Self.long.samples16), "the first run's audio is not the file's")
        let position = try saved(state)[path]?["position"] as? Double
        #expect(position != nil, "no position saved for \(path)")

        let second = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        let resumed = try await play(["play", path], state: state, capture: second, for: 1, signal: SIGINT, gated: false)
        #expect(resumed.status == 130, "\(resumed)")
        let captured = AudioCompare.trimmingSilentFrames(await second.finishInt16(), channels: 2)
        let start = startFrame(of: captured, in: Self.long.samples16)
        #expect(start != nil, "the second run's audio is not the file's")
        if let start {
            #expect(abs(start - heard) <= 48_000 / 20, "resumed at frame \(start), the first run was heard to \(heard)")
        }
        // --from-start overrides it.
        let third = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        _ = try await play(["play", path, "--from-start"], state: state, capture: third, for: 0.5, signal: SIGINT, gated: false)
        let fresh = AudioCompare.trimmingSilentFrames(await third.finishInt16(), channels: 2)
        #expect(startFrame(of: fresh, in: Self.long.samples16) == 0, "--from-start did not start at the beginning")
    }

    @Test("kill -9 in the middle of playback loses at most 5 s of position")
    func crashLosesAtMostFiveSeconds() async throws {
        let directory = try TemporaryDirectory(prefix: "resume")
        let state = try PlayerProcess.freshStateDirectory()
        let path = try directory.write(Self.long.bytes, as: "long.wav")
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        let killed = try await play(["play", path], state: state, capture: capture, for: 7, signal: SIGKILL)
        #expect(killed.signal == SIGKILL, "\(killed)")
        let heard = Double(AudioCompare.trimmingSilentFrames(await capture.finishInt16(), channels: 2).count / 2) / 48_000
        guard FileManager.default.fileExists(atPath: state + "/alicia-player/positions.json") else {
            let log = (try? String(contentsOfFile: state + "/player.log", encoding: .utf8)) ?? "(none)"
            let tail = log.split(separator: "\n").suffix(40).joined(separator: "\n")
            Issue.record("nothing was saved in the \(heard) s heard before kill -9; the player's log, last 40 lines:\n\(tail)")
            return
        }
        let position = try saved(state)[path]?["position"] as? Double ?? 0
        #expect(position > 0 && heard - position <= 5.5, "saved \(position) s; \(heard) s had been heard")
    }

    @Test("two players at once, one state file: both positions are kept")
    func twoPlayersKeepBothPositions() async throws {
        let directory = try TemporaryDirectory(prefix: "resume")
        let state = try PlayerProcess.freshStateDirectory()
        let a = try directory.write(Self.long.bytes, as: "a.wav")
        let b = try directory.write(Self.long.bytes, as: "b.wav")
        let captureA = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        let captureB = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        async let first = play(["play", a], state: state, capture: captureA, for: 1.5, signal: SIGTERM)
        async let second = play(["play", b], state: state, capture: captureB, for: 1.5, signal: SIGTERM)
        let results = try await [first, second]
        _ = await captureA.finish()
        _ = await captureB.finish()
        #expect(results.allSatisfy { $0.status == 143 }, "\(results)")
        let positions = try saved(state)
        #expect((positions[a]?["position"] as? Double ?? 0) > 1, "\(positions)")
        #expect((positions[b]?["position"] as? Double ?? 0) > 1, "\(positions)")
    }

    @Test("a corrupt state file is moved aside with one warning, and playback goes on")
    func corruptStateFile() async throws {
        let directory = try TemporaryDirectory(prefix: "resume")
        let state = try PlayerProcess.freshStateDirectory()
        try FileManager.default.createDirectory(atPath: state + "/alicia-player", withIntermediateDirectories: true)
        try Data("]]] not positions".utf8).write(to: URL(fileURLWithPath: state + "/alicia-player/positions.json"))
        let short = WAVFixture(seconds: 0.5, sampleRate: 48_000, channels: 2, format: .pcm16, seed: 0x5E6)
        let path = try directory.write(short.bytes, as: "short.wav")
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        let result = try await Playback.run(["play", path, "--device", capture.sinkName], environment: ["XDG_STATE_HOME": state])
        let captured = await capture.finishInt16()
        #expect(result.status == 0, "\(result)")
        #expect(result.stderrLines.count == 1 && result.stderrLines[0].contains("moved it to"), "\(result)")
        expectBitExact(captured: captured, expected: short.samples16, channels: 2)
        let names = try FileManager.default.contentsOfDirectory(atPath: state + "/alicia-player")
        #expect(names.contains { $0.hasPrefix("positions.json.corrupt-") }, "\(names)")
        // Played to its end: next time it starts from the beginning.
        #expect(try saved(state)[path]?["played"] as? Bool == true)
    }
}
