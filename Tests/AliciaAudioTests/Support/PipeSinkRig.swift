import Testing
import AliciaTestSupport
@testable import AliciaAudio

/// nginx serving a test's media on loopback, a PulseAudio pipe sink capturing what is played
/// (16-bit stereo at 48 kHz) and a player on that sink: the rig of the engine's real-PulseAudio
/// suites. The test stops it (`defer { rig.stop() }`).
struct PipeSinkRig {
    static let rate = 48_000

    let server: NginxServer
    let capture: PipeSinkCapture
    let player: Player

    /// Serves `media` (file name → the file's bytes), then opens the sink and the player.
    init(serving media: KeyValuePairs<String, [UInt8]>) async throws {
        let server = try NginxServer()
        for (name, bytes) in media { try server.serve(bytes, as: name) }
        capture = try await PipeSinkCapture(format: .s16le, rate: Self.rate, channels: 2)
        player = Player(configuration: PlayerConfiguration(device: capture.sinkName))
        self.server = server
    }

    /// A rig serving `fixture` as `name` and playing it alone until `seconds` of it have been heard.
    static func playing(_ fixture: WAVFixture, as name: String = "a.wav", untilHeard seconds: Double,
                        sourceLocation: SourceLocation = #_sourceLocation) async throws -> PipeSinkRig {
        let rig = try await PipeSinkRig(serving: [name: fixture.bytes])
        try rig.play(name, untilHeard: seconds, sourceLocation: sourceLocation)
        return rig
    }

    /// A configuration for another player on the same sink (a voice-note player).
    var configuration: PlayerConfiguration { PlayerConfiguration(device: capture.sinkName) }

    /// Where the server serves `name`.
    func location(_ name: String) throws -> MediaLocation {
        try MediaLocation(server.url("/media/\(name)"))
    }

    /// The served files `names` as queue items titled by their names.
    func items(_ names: [String]) throws -> [QueueItem] {
        try names.map { QueueItem(location: try location($0), title: $0) }
    }

    /// Plays the served file `name` alone and waits until `seconds` of it have been heard.
    func play(_ name: String, untilHeard seconds: Double, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try player.play(location(name))
        player.waitForPosition(atLeast: seconds, sourceLocation: sourceLocation)
    }

    /// Pauses and waits until the cork has reached the server (`settle` after the pause is posted;
    /// the sink then holds still).
    func pauseAndSettle(settle: Duration = .milliseconds(500)) {
        player.pause()
        player.waitForEvent { $0 == .stateChanged(.paused) }
        _ = player.nextEvent(timeout: settle)
    }

    /// The audible samples the sink has received so far (the silence it fills gaps with trimmed
    /// from both ends).
    func audibleSoFar() -> [Int16] {
        AudioCompare.trimmingSilentFrames(AudioCompare.int16Samples(littleEndian: capture.bytesSoFar), channels: 2)
    }

    /// Stops the player and takes the whole capture without its silent frames.
    func finishPlayed() async -> [Int16] {
        player.stop()
        return withoutSilentFrames(await capture.finishInt16())
    }

    func stop() {
        server.stop()
    }
}
