import AliciaTestSupport
import Foundation
import Testing

/// Running the player from the tests: every run goes through one gate, so that at most a few players
/// play at once whatever swift-testing's parallelism (ALICIA_TEST_PLAYERS, default 3: with the
/// third wave's tests, four players beside the suite's own work starved the test process's readers
/// on two cores for seconds).
enum Playback {
    static let gate = ConcurrencyGate(
        limit: ProcessInfo.processInfo.environment["ALICIA_TEST_PLAYERS"].flatMap { Int($0) }.map { max(1, $0) } ?? 3
    )

    /// `alicia-player arguments…`, killed and failed after `timeout`.
    static func run(
        _ arguments: [String],
        environment: [String: String] = [:],
        timeout: Duration = .seconds(120)
    ) async throws -> PlayerResult {
        await gate.enter()
        do {
            let result = try await PlayerProcess.run(arguments, environment: environment, timeout: timeout)
            await gate.leave()
            return result
        } catch {
            await gate.leave()
            throw error
        }
    }

    /// Runs `body` holding a place of the gate: for a test that starts players itself (in tmux,
    /// through a shell) rather than through ``run(_:environment:timeout:)``.
    static func gated<T>(_ body: () async throws -> T) async throws -> T {
        await gate.enter()
        do {
            let result = try await body()
            await gate.leave()
            return result
        } catch {
            await gate.leave()
            throw error
        }
    }

    /// Plays `source` into a fresh 16-bit capture sink of the given spec; returns the result and the
    /// captured samples (untrimmed).
    static func playCapturing16(
        _ source: String,
        _ extraArguments: [String] = [],
        rate: Int = 48_000,
        channels: Int = 2,
        environment: [String: String] = [:]
    ) async throws -> (PlayerResult, [Int16]) {
        let capture = try await PipeSinkCapture(format: .s16le, rate: rate, channels: channels)
        let result = try await run(["play", source, "--device", capture.sinkName] + extraArguments, environment: environment)
        return (result, await capture.finishInt16())
    }

    /// As ``playCapturing16(_:_:rate:channels:)`` into a float32 sink.
    static func playCapturingFloat(
        _ source: String,
        _ extraArguments: [String] = [],
        rate: Int = 48_000,
        channels: Int = 2
    ) async throws -> (PlayerResult, [Float]) {
        let capture = try await PipeSinkCapture(format: .float32le, rate: rate, channels: channels)
        let result = try await run(["play", source, "--device", capture.sinkName] + extraArguments)
        return (result, await capture.finishFloat32())
    }
}
