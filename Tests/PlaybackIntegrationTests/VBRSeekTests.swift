import AliciaTestSupport
import Foundation
import Testing

/// A VBR MP3 without a Xing or VBRI frame (as older encoders and some hosts still serve them): no
/// table of contents, no frame count. Its length is estimated at once from the mean bitrate of its
/// first frames, and a seek goes where that mean puts it, with one bounded request.
@Suite("VBR MP3 without a table of contents")
struct VBRSeekTests {
    @Test("1 hour, --start 45:00 over HTTP: at most 3 MiB fetched, a duration within 2 %, playing from 45:00")
    func startDeepInAnHour() async throws {
        try TestEnvironment.requirePulseAudio()
        try ControlSocketTests.requireTools(["ffmpeg"])
        let mp3 = try await PodcastFixture.mp3(seconds: 3600, sampleRate: 22_050, rate: .variable(6), seed: 45, infoFrame: false)
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: mp3)))
        // The fixture is what the case needs: VBR frames and no info frame.
        let head = Array(bytes.prefix(8192))
        #expect(head.firstRange(of: Array("Xing".utf8)) == nil && head.firstRange(of: Array("Info".utf8)) == nil)
        let server = try NginxServer()
        try server.serve(bytes, as: "hour.mp3")
        let directory = try TemporaryDirectory(prefix: "vbr-seek")
        let socket = directory.file("socket")
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        var position: Double?, duration: Double?
        try await Playback.gated {
            let player = try PlayerProcess.start(["play", server.url("/media/hour.mp3"), "--start", "45:00", "--ipc", socket,
                                                  "--device", capture.sinkName])
            try await ControlSocketTests.waitForSocket(socket, player: player)
            // A hang guard, not a figure: until a second past the start has been heard.
            for _ in 0..<1500 {
                position = Double(try await PlayerProcess.run(["ctl", "--ipc", socket, "get", "time-pos"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines))
                if let position, position >= 2701 { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            duration = Double(try await PlayerProcess.run(["ctl", "--ipc", socket, "get", "duration"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            #expect(try await PlayerProcess.run(["ctl", "--ipc", socket, "quit"]).status == 0)
            let ended = try await PlayerProcess.result(of: player, timeout: .seconds(20))
            #expect(ended.status == 0 && !ended.stderr.contains("truncated"), "\(ended)")
        }
        let captured = await capture.finishInt16(quietFor: .milliseconds(200))
        #expect(captured.contains { abs(Int($0)) > 500 }, "nothing audible was played")
        let heard = try #require(position, "no position was read")
        #expect(heard >= 2700 && heard < 2760, "playing at \(heard) s")
        let length = try #require(duration, "no duration was shown")
        #expect(abs(length - 3600) <= 72, "a duration of \(length) s for an hour")
        let entries = await server.settledAccessLog().filter { $0.uri.hasPrefix("/media/hour.mp3") }
        let sent = entries.map(\.bytesSent).reduce(0, +)
        #expect(sent <= 3 << 20, "\(sent) bytes fetched of \(bytes.count), in \(entries.count) requests: \(entries)")
    }
}
