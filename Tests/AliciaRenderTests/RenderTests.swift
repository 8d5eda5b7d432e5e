import Foundation
import Testing
import AliciaTestSupport
import AliciaAudio
@testable import AliciaRender

/// The render target in-process: formats from names, chapters from a frame map, and files read back
/// by ffprobe and ffmpeg (programs we did not write).
@Suite struct RenderUnitTests {
    @Test func theExtensionNamesTheFormatAndItsLimits() throws {
        #expect(try RenderFormat.forPath("a/b.OPUS", bitrate: 48, quality: nil).get().kind == .opus)
        #expect(try RenderFormat.forPath("x.ogg", bitrate: nil, quality: nil).get().kind == .opus)
        #expect(try RenderFormat.forPath("x.mp3", bitrate: nil, quality: 4).get() == RenderFormat(kind: .mp3, bitrate: nil, quality: 4))
        #expect(RenderFormat.forPath("x.m4a", bitrate: nil, quality: nil) == .failure(RenderProblem(
            "x.m4a: the file's extension names no format render writes: use .wav, .flac, .opus (or .ogg) or .mp3")))
        #expect(RenderFormat.forPath("noextension", bitrate: nil, quality: nil).isFailure)
        #expect(RenderFormat.forPath("x.opus", bitrate: 300, quality: nil).isFailure)
        #expect(RenderFormat.forPath("x.mp3", bitrate: 16, quality: nil).isFailure)
        #expect(RenderFormat.forPath("x.wav", bitrate: nil, quality: 5).isFailure)
        #expect(RenderFormat.forPath("x.mp3", bitrate: 128, quality: 5).isFailure)
    }

    @Test func theOutputFormatIsOneTheEncoderTakes() {
        let cd = AudioFormat(sampleRate: 44_100, channels: 2, sampleType: .int16, frames: 10, description: "")
        let surround = AudioFormat(sampleRate: 96_000, channels: 6, sampleType: .float32, frames: nil, description: "")
        #expect(RenderFormat(kind: .opus).outputFormat(for: cd).sampleRate == 48_000)
        #expect(RenderFormat(kind: .mp3).outputFormat(for: cd).sampleRate == 44_100)
        let mp3 = RenderFormat(kind: .mp3).outputFormat(for: surround)
        #expect(mp3.sampleRate == 48_000 && mp3.channels == 2)
        #expect(RenderFormat(kind: .flac).outputFormat(for: surround).sampleRate == 96_000)
        #expect(RenderFormat(kind: .wav).outputFormat(for: cd).frames == nil)
    }

    /// Two entries at 1.5x into a 48 kHz output, the first cut by skipped silence: the second begins
    /// where its span does, the first's own chapters where the spans holding their source frames put
    /// them (a chapter inside a cut is heard where the cut is).
    @Test func chaptersArePlacedByTheSpans() {
        let a = QueueEntryID(rawValue: 1), b = QueueEntryID(rawValue: 2)
        var timeline = OutputTimeline()
        timeline.spans = [
            .init(entry: a, outputStart: 0, sourceStart: 0, sourceRate: 48_000, ratio: 1.5, isCut: false),
            // Source 96,000-144,000 (2 s to 3 s) was silence, cut at output frame 64,000.
            .init(entry: a, outputStart: 64_000, sourceStart: 144_000, sourceRate: 48_000, ratio: 1.5, isCut: true),
            .init(entry: b, outputStart: 100_000, sourceStart: 0, sourceRate: 24_000, ratio: 0.75, isCut: false),
        ]
        timeline.metadata[a] = ItemMetadata(chapters: [Chapter(title: "Intro", start: 0), Chapter(title: "One", start: 1.5),
                                                      Chapter(title: "In the pause", start: 2.5), Chapter(title: "After", start: 3.5)])
        let chapters = RenderedChapters.make(timeline, titles: [a: "A", b: "B"], rate: 48_000, totalFrames: 120_000)
        #expect(chapters.map(\.title) == ["A: Intro", "One", "In the pause", "After", "B"])
        let starts = chapters.map { Int(($0.start * 48_000).rounded()) }
        #expect(starts == [0, 48_000, 64_000, 64_000 + 16_000, 100_000], "\(starts)")
        #expect(chapters.last?.end == 2.5)
        #expect(zip(chapters, chapters.dropFirst()).allSatisfy { $0.end == $1.start })
    }

    @Test func theID3TagIsSizedAsItSays() {
        var tags = RenderTags(title: "Évening", album: "Shows")
        tags.chapters = [RenderedChapter(title: "one", start: 0, end: 1.25), RenderedChapter(title: "two", start: 1.25, end: 3)]
        let tag = ID3Chapters.tag(tags)
        #expect(ID3Chapters.size(atStartOf: tag) == tag.count)
        #expect(RenderTags.clock(3725.5) == "01:02:05.500")
        #expect(RenderTags.base64(Array("any carnal pleas".utf8)) == "YW55IGNhcm5hbCBwbGVhcw==")
        #expect(tags.vorbisComments().contains("CHAPTER002=00:00:01.250"))
    }
}

/// Whole renders, in-process (no sound server), read back by ffprobe and ffmpeg.
@Suite struct RendererTests {
    /// A WAV of tone, silence, tone (16-bit, 48 kHz stereo).
    static func toneWithPause() -> [UInt8] {
        let tone = Tone.samples(frequency: 440, seconds: 1.5, rate: 48_000, channels: 2, amplitude: 0.4)
        let samples = tone + [Int16](repeating: 0, count: 48_000 * 2 * 3) + tone
        var data = [UInt8]()
        data.reserveCapacity(samples.count * 2)
        for sample in samples { data += [UInt8(truncatingIfNeeded: sample), UInt8(truncatingIfNeeded: sample >> 8)] }
        func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        func le16(_ v: Int) -> [UInt8] { (0..<2).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        return Array("RIFF".utf8) + le32(36 + data.count) + Array("WAVEfmt ".utf8) + le32(16) + le16(1) + le16(2)
            + le32(48_000) + le32(48_000 * 4) + le16(4) + le16(16) + Array("data".utf8) + le32(data.count) + data
    }

    private func render(_ paths: [String], to output: String, skip: SilenceSkipping) throws -> RenderSummary {
        var request = RenderRequest(items: try paths.map { QueueItem(location: try MediaLocation($0), title: String($0.split(separator: "/").last!)) },
                                    output: output, format: try RenderFormat.forPath(output, bitrate: nil, quality: nil).get())
        request.silenceSkipping = skip
        request.speed = 1.25
        return try Renderer.run(request, stopRequested: { false }, report: { _ in }).get()
    }

    /// Skipped silence moves the second item: it begins where the first, rendered alone with the same
    /// settings, ends; ffprobe reads the same chapters the render reported.
    @Test func skippedSilenceMovesTheNextItemsChapter() throws {
        let directory = try TemporaryDirectory(prefix: "render-unit")
        let paused = try directory.write(Self.toneWithPause(), as: "paused.wav")
        let plain = try directory.write(WAVFixture(seconds: 1, sampleRate: 48_000, channels: 2, seed: 7).bytes, as: "plain.wav")
        let alone = try render([paused], to: directory.path + "/alone.flac", skip: .strong)
        #expect(alone.seconds < 5.9 / 1.25, "the pause was not shortened: \(alone.seconds) s")
        let both = try render([paused, plain], to: directory.path + "/both.flac", skip: .strong)
        #expect(both.chapters.map(\.title) == ["paused.wav", "plain.wav"])
        #expect(abs(both.chapters[1].start - alone.seconds) <= 0.05, "\(both.chapters[1].start) vs \(alone.seconds)")
        let probed = try Probe.chapters(directory.path + "/both.flac")
        #expect(probed.count == 2 && abs(probed[1] - both.chapters[1].start) <= 0.001, "\(probed)")
    }

    /// A cover large enough that the comment header takes several Ogg pages: every audio page after
    /// it is renumbered, and ffmpeg decodes the whole file without a complaint.
    @Test func aLargeCoverRenumbersTheOggPages() throws {
        let directory = try TemporaryDirectory(prefix: "render-unit")
        let source = try directory.write(WAVFixture(seconds: 4, sampleRate: 48_000, channels: 2, seed: 9).bytes, as: "noise.wav")
        let encoded = directory.path + "/encoded.opus"
        let request = RenderRequest(items: [QueueItem(location: try MediaLocation(source), title: "noise")], output: encoded,
                                    format: RenderFormat(kind: .opus))
        _ = try Renderer.run(request, stopRequested: { false }, report: { _ in }).get()
        // A JPEG of noise, well over an Ogg page (64 KiB), made by ffmpeg.
        let coverPath = directory.path + "/cover.jpg"
        let made = try ChildProcess.runBlocking("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "nullsrc=s=640x640,geq=random(1)*255:128:128",
                                                          "-frames:v", "1", "-q:v", "2", coverPath], timeout: .seconds(60))
        #expect(made.status == 0, "ffmpeg: \(made.stderrText)")
        let coverSize = try FileManager.default.attributesOfItem(atPath: coverPath)[.size] as? Int ?? 0
        #expect(coverSize > 70_000, "the cover is \(coverSize) bytes")
        var tags = RenderTags(title: "T", album: "A", coverPath: coverPath)
        tags.chapters = [RenderedChapter(title: "first", start: 0, end: 2), RenderedChapter(title: "second", start: 2, end: 4)]
        let tagged = directory.path + "/tagged.opus"
        #expect(OggComments.copy(encoded, to: tagged, tags: tags) == nil)
        let decoded = try ChildProcess.runBlocking("ffmpeg", ["-v", "error", "-i", tagged, "-f", "null", "-"], timeout: .seconds(60))
        #expect(decoded.status == 0 && decoded.stderrText.isEmpty, "ffmpeg: \(decoded.stderrText)")
        #expect(try Probe.chapters(tagged) == [0, 2])
        #expect(try Probe.duration(tagged) == Probe.duration(encoded))
    }
}

/// What ffprobe reads of a file.
enum Probe {
    static func chapters(_ path: String) throws -> [Double] {
        try entries(path, "chapter=start_time").compactMap { $0.hasPrefix("start_time=") ? Double($0.dropFirst(11)) : nil }
    }

    static func duration(_ path: String) throws -> Double? {
        try entries(path, "format=duration").compactMap { $0.hasPrefix("duration=") ? Double($0.dropFirst(9)) : nil }.first
    }

    private static func entries(_ path: String, _ show: String) throws -> [String] {
        let result = try ChildProcess.runBlocking("ffprobe", ["-v", "error", "-show_entries", show, "-of", "default=nw=1", path])
        #expect(result.status == 0, "ffprobe \(path): \(result.stderrText)")
        return result.stdoutText.split(separator: "\n").map(String.init)
    }
}

extension Result {
    var isFailure: Bool {
        if case .failure = self { return true }
        return false
    }
}
