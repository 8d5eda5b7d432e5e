import Foundation
import AliciaLocks

/// Episodes as publishers make them, made by ffmpeg (Debian's, which `scripts/test` installs): MP3
/// with an ID3v2.4 tag (title, artist, album, date, comment, a PNG cover, CHAP/CTOC chapters) and
/// a LAME/Info or Xing frame with its table of contents, CBR and VBR, hours long; AAC in M4A with
/// chapters; WAV with `cue ` points and `LIST/adtl` labels. Long files are an encoded minute of pink
/// noise copied end to end by ffmpeg's muxer (`-stream_loop … -c copy`), which writes the info
/// frame for the whole: a 2-hour MP3 takes a third of a second, not the 25 s of encoding it.
///
/// Files are made once per test process and shared (they are read only), in one temp directory.
public enum PodcastFixture {
    public struct Chapter: Sendable {
        public var title: String
        public var start: Double
        public var end: Double
        public init(_ title: String, start: Double, end: Double) {
            self.title = title
            self.start = start
            self.end = end
        }
    }

    public struct Tags: Sendable {
        public var title = "Chaptered Episode"
        public var artist = "The Tuesday Show"
        public var album = "Season 3"
        public var date = "2024"
        public var comment = "Notes for the episode"
        public var cover = true
        public var chapters: [Chapter] = [
            Chapter("Cold open", start: 0, end: 4),
            Chapter("The interview", start: 4, end: 9.5),
            Chapter("Listener mail", start: 9.5, end: 12),
        ]
        public init() {}
    }

    public enum Rate: Sendable, Hashable {
        /// `-b:a N` kb/s.
        case constant(Int)
        /// `-q:a N` (LAME's VBR quality).
        case variable(Int)
    }

    private static let made = Locked<[String: String]>([:])
    /// Held while a file is made, so two tests asking for the same file make it once and never see
    /// the other's half-written parts (the chunk an MP3 is looped from, for one). Recursive: making
    /// a tagged file makes the cover.
    private static let making = NSRecursiveLock()
    private static let directory: TemporaryDirectory = {
        do { return try TemporaryDirectory(prefix: "podcast-fixtures") } catch { fatalError("\(error)") }
    }()

    /// An MP3 of `seconds` (mono pink noise at `sampleRate`), tagged with `tags` when given;
    /// `infoFrame` false: without the Xing/Info frame (as older encoders wrote VBR files).
    public static func mp3(seconds: Double, sampleRate: Int = 22_050, rate: Rate = .constant(32), tags: Tags? = nil,
                           seed: Int = 7, infoFrame: Bool = true) async throws -> String {
        let name = "mp3-\(seconds)-\(sampleRate)-\(rate)-\(tags == nil ? "plain" : "tagged")-\(seed)\(infoFrame ? "" : "-noinfo").mp3"
        return try await cached(name) { path in
            let chunkSeconds = min(seconds, 61)
            let chunk = directory.file("chunk-" + name)
            let codec: [String]
            switch rate {
            case .constant(let kbps): codec = ["-b:a", "\(kbps)k"]
            case .variable(let quality): codec = ["-q:a", "\(quality)"]
            }
            try ffmpeg(["-f", "lavfi", "-i", "anoisesrc=d=\(chunkSeconds):c=pink:r=\(sampleRate):a=0.3:seed=\(seed)",
                        "-ac", "1", "-c:a", "libmp3lame"] + codec + ["-id3v2_version", "0", chunk])
            let loops = Int((seconds / chunkSeconds).rounded(.up)) - 1
            var inputs = ["-stream_loop", "\(loops)", "-i", chunk]
            var maps = ["-map", "0:a", "-c:a", "copy", "-t", "\(seconds)"]
            if let tags { try addTags(tags, inputs: &inputs, maps: &maps, coverIndex: 2) }
            try ffmpeg(inputs + maps + ["-id3v2_version", "4", "-write_xing", infoFrame ? "1" : "0", path])
        }
    }

    /// An AAC (LC) file in an M4A container of `seconds` of a 440 Hz tone (stereo, 44.1 kHz), with
    /// `tags` (cover and chapters included) when given; `faststart`: the index before the audio.
    /// `chapterList`: Nero's `chpl` list beside the chapter text track (ffmpeg writes both; Apple's
    /// tools only the track).
    public static func m4a(seconds: Double, tags: Tags? = nil, faststart: Bool = true, frequency: Int = 440,
                           chapterList: Bool = true) async throws -> String {
        let name = "m4a-\(seconds)-\(tags == nil ? "plain" : "tagged")-\(faststart)-\(frequency)-\(chapterList).m4a"
        return try await cached(name) { path in
            var inputs = ["-f", "lavfi", "-i", "sine=frequency=\(frequency):sample_rate=44100:duration=\(seconds)"]
            var maps = ["-map", "0:a", "-ac", "2", "-c:a", "aac", "-b:a", "96k"]
            if let tags { try addTags(tags, inputs: &inputs, maps: &maps, coverIndex: 2) }
            let flags = (faststart ? ["+faststart"] : []) + (chapterList ? [] : ["+disable_chpl"])
            if !flags.isEmpty { maps += ["-movflags", flags.joined()] }
            try ffmpeg(inputs + maps + [path])
        }
    }

    /// Tag, cover and chapter arguments: the chapters as an ffmetadata input (index 1), the cover
    /// as a PNG input (index `coverIndex`), attached as a picture.
    private static func addTags(_ tags: Tags, inputs: inout [String], maps: inout [String], coverIndex: Int) throws {
        var metadata = ";FFMETADATA1\n"
        for chapter in tags.chapters {
            metadata += "[CHAPTER]\nTIMEBASE=1/1000\nSTART=\(Int(chapter.start * 1000))\nEND=\(Int(chapter.end * 1000))\ntitle=\(chapter.title)\n"
        }
        let metadataPath = try directory.write(Array(metadata.utf8), as: "chapters-\(UUID().uuidString).txt")
        inputs += ["-i", metadataPath]
        maps += ["-map_chapters", "1"]
        if tags.cover {
            let cover = try cachedBlocking("cover.png") { path in
                try ffmpeg(["-f", "lavfi", "-i", "color=c=0x336699:s=64x64", "-frames:v", "1", path])
            }
            inputs += ["-i", cover]
            maps += ["-map", "\(coverIndex):v", "-c:v", "copy", "-disposition:v", "attached_pic",
                     "-metadata:s:v", "title=Album cover", "-metadata:s:v", "comment=Cover (front)"]
        }
        for (key, value) in [("title", tags.title), ("artist", tags.artist), ("album", tags.album),
                             ("date", tags.date), ("comment", tags.comment)] {
            maps += ["-metadata", "\(key)=\(value)"]
        }
    }

    /// The bytes of the cover `mp3(…tags:)` and `m4a(…tags:)` attach.
    public static func coverBytes() async throws -> [UInt8] {
        let path = try await cached("cover.png") { path in
            try ffmpeg(["-f", "lavfi", "-i", "color=c=0x336699:s=64x64", "-frames:v", "1", path])
        }
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// `wav` with a `cue ` chunk of `cues` (sample offsets) and a `LIST/adtl` chunk naming each,
    /// after its data chunk, as editors write them; the RIFF size is fixed up.
    public static func withCuePoints(_ wav: [UInt8], cues: [(sample: UInt32, label: String)]) -> [UInt8] {
        func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        var cue = le32(UInt32(cues.count))
        for (index, point) in cues.enumerated() {
            cue += le32(UInt32(index + 1)) + le32(point.sample) + Array("data".utf8) + le32(0) + le32(0) + le32(point.sample)
        }
        var adtl = Array("adtl".utf8)
        for (index, point) in cues.enumerated() {
            var text = Array(point.label.utf8) + [0]
            if text.count % 2 == 1 { text.append(0) }
            adtl += Array("labl".utf8) + le32(UInt32(4 + text.count)) + le32(UInt32(index + 1)) + text
        }
        var bytes = wav
        if bytes.count % 2 == 1 { bytes.append(0) }
        bytes += Array("cue ".utf8) + le32(UInt32(cue.count)) + cue
        bytes += Array("LIST".utf8) + le32(UInt32(adtl.count)) + adtl
        let riff = le32(UInt32(bytes.count - 8))
        bytes.replaceSubrange(4..<8, with: riff)
        return bytes
    }

    /// Runs ffmpeg quietly; throws with its words when it fails.
    public static func ffmpeg(_ arguments: [String]) throws {
        let result = try ChildProcess.runBlocking("ffmpeg", ["-hide_banner", "-loglevel", "error", "-nostdin", "-y"] + arguments,
                                                  timeout: .seconds(120))
        guard result.status == 0 else {
            throw HarnessError("ffmpeg \(arguments.joined(separator: " ")) failed (\(result.status)): \(result.stderrText)")
        }
    }

    /// The file `name`, made by `make` the first time; on a Dispatch worker, since a file hours long
    /// takes ffmpeg seconds and a second asker waits on the lock: two such waits on the cooperative
    /// pool's two threads stalled every test of the process.
    private static func cached(_ name: String, make: @escaping @Sendable (String) throws -> Void) async throws -> String {
        try await BlockingWork.run { try cachedBlocking(name, make: make) }
    }

    private static func cachedBlocking(_ name: String, make: (String) throws -> Void) throws -> String {
        if let path = made.withLock({ $0[name] }) { return path }
        making.lock()
        defer { making.unlock() }
        if let path = made.withLock({ $0[name] }) { return path }
        let path = directory.file(name)
        let temporary = path + ".part-\(UUID().uuidString)." + (name.split(separator: ".").last.map(String.init) ?? "bin")
        try make(temporary)
        guard rename(temporary, path) == 0 else { throw HarnessError("cannot rename \(temporary): \(String(cString: strerror(errno)))") }
        made.withLock { $0[name] = path }
        return path
    }
}
