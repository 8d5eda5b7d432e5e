#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaJSON

/// The item heard, the queue, buffering and ours.
extension SessionProperties {
    static let item: [SessionProperty] = [
        readOnly("duration") { $0.hasItem ? seconds($0.snapshot.duration) : nil },
        readOnly("media-title") { $0.details.map { .string($0.title) } },
        readOnly("filename") { $0.snapshot.item.map { .string($0.location.fileName) } },
        readOnly("path") { $0.snapshot.item.map { .string($0.location.display) } },
        readOnly("metadata") { $0.details.map(metadata) },
        readOnly("file-format") { $0.hasItem ? $0.snapshot.format.map { .string(fileFormat($0)) } : nil },
        readOnly("file-size") { reading in
            guard let path = reading.snapshot.item?.location.filePath else { return nil }
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            return .number(Double(info.st_size))
        },
        readOnly("audio-params") { reading in reading.hasItem ? reading.snapshot.format.map(audioParameters) : nil },
        readOnly("transcript") { reading in reading.hasItem ? transcript(reading.snapshot.metadata.transcript) : nil },
        readOnly("seekable") { .bool($0.hasItem && $0.snapshot.format?.frames != nil) },
        readOnly("mpv-version") { .string("alicia-player \($0.version)") },
        readOnly("pid") { _ in .number(Double(getpid())) },
    ]

    /// mpv's chapter properties: `chapter` is 0-based (-1 before the first), `chapter-list` holds
    /// `title` and `time` (seconds of the item's own time).
    static let chapterProperties: [SessionProperty] = [
        property("chapter", read: { $0.chapter.map { .number(Double($0)) } }, write: { value, reading in
            guard let index = value.integerValue else { return .failure(.format("a chapter's index (from 0)")) }
            guard let chapters = reading.details?.chapters, reading.hasItem, !chapters.isEmpty else { return .failure(.unavailable) }
            return .success(.chapter(.to(index)))
        }),
        readOnly("chapters") { $0.details.map { .number(Double($0.chapters.count)) } },
        readOnly("chapter-list") { reading in
            reading.details.map { details in
                .array(details.chapters.map { .object([.init("title", .string($0.title)), .init("time", .number(rounded($0.start)))]) })
            }
        },
    ]

    /// `[{"start": 0.5, "end": 2, "speaker": "Alicia", "text": "Hello"}]` (no `end` or `speaker`
    /// when the file has none).
    static func transcript(_ cues: [TranscriptCue]) -> JSONValue {
        .array(cues.map { cue in
            var members: [JSONValue.Member] = [.init("start", .number(rounded(cue.start, places: 3)))]
            if let end = cue.end { members.append(.init("end", .number(rounded(end, places: 3)))) }
            if let speaker = cue.speaker { members.append(.init("speaker", .string(speaker))) }
            members.append(.init("text", .string(cue.text)))
            return .object(members)
        })
    }

    static let queueProperties: [SessionProperty] = [
        readOnly("playlist") { reading in .array(reading.queue.entries.map { playlistEntry($0, reading) }) },
        property("playlist-pos", read: { reading in .number(Double(reading.current.flatMap(reading.queue.index(of:)) ?? -1)) },
                 write: { value, _ in
                     guard let index = value.integerValue else { return .failure(.format("an index")) }
                     return .success(.playIndex(index))
                 }),
        readOnly("playlist-playing-pos") { reading in
            .number(Double(reading.hasItem ? reading.snapshot.entry.flatMap(reading.queue.index(of:)) ?? -1 : -1))
        },
        readOnly("playlist-count") { .number(Double($0.queue.count)) },
        loopProperty("loop-playlist", mode: .queue),
        loopProperty("loop-file", mode: .entry),
        property("shuffle", read: { .bool($0.levels.shuffled) }, write: { value, _ in
            guard let on = value.flagValue else { return .failure(.format("true or false")) }
            // A queue in order cannot be put back: off leaves it as it is now.
            return .success(on ? .shuffle : .loop(.set(.off)))
        }, cycle: { _ in .shuffle }),
    ]

    static let buffering: [SessionProperty] = [
        readOnly("idle-active") { .bool($0.snapshot.state == .idle || $0.queue.isEmpty) },
        readOnly("eof-reached") { .bool($0.snapshot.state == .ended) },
        readOnly("core-idle") { .bool($0.snapshot.state != .playing) },
        readOnly("paused-for-cache") { reading in
            let state = reading.snapshot.state
            return .bool(state == .buffering || state == .reconnecting)
        },
        readOnly("cache-buffering-state") { reading in
            guard reading.hasItem else { return nil }
            return .number(((reading.snapshot.refill ?? 1) * 100).rounded())
        },
        readOnly("demuxer-cache-duration", continuous: true) { $0.hasItem ? .number(rounded($0.snapshot.bufferedAhead)) : nil },
    ]

    static let ours: [SessionProperty] = [
        readOnly("alicia-label") { .string($0.snapshot.item?.label) },
        readOnly("alicia-state") { .string($0.snapshot.state.rawValue) },
        readOnly("alicia-voice") { .string($0.voice) },
        property("alicia-skip-silence", read: { .string($0.snapshot.silenceSkipping.rawValue) }, write: { value, _ in
            guard let level = value.flagValue.map({ $0 ? SilenceSkipping.medium : .off }) ?? value.stringValue.flatMap(SilenceSkipping.init(rawValue:)) else {
                return .failure(.format("off, mild, medium or strong"))
            }
            return .success(.skipSilence(.set(level)))
        }, cycle: { _ in .skipSilence(.cycle) }),
        readOnly("alicia-time-saved") { .number(rounded($0.snapshot.silenceSavedTotal, places: 3)) },
        property("alicia-sleep", read: { sleepValue($0.snapshot.sleepTimer) }, write: { value, _ in
            sleepTimer(value).map { .sleep(.set($0)) }
        }, cycle: { _ in .sleep(.cycle) }),
        property("alicia-loudness", read: { reading in
            switch reading.snapshot.loudness {
            case .off: return .string("off")
            case .target(let lufs): return .number(lufs)
            }
        }, write: { value, _ in
            if value.stringValue == "off" || value.flagValue == false { return .success(.loudness(.off)) }
            guard let target = value.numberValue, (-40 ... -5).contains(target) else {
                return .failure(.format("off or a target from -40 to -5 LUFS"))
            }
            return .success(.loudness(.target(target)))
        }),
        readOnly("alicia-loudness-gain") { .number(rounded($0.snapshot.loudnessGain, places: 2)) },
    ]

    static let lists: [SessionProperty] = [
        readOnly("property-list") { _ in .array(names.map { .string($0) }) },
        readOnly("command-list") { _ in .array(SessionCommands.table.map(\.listing)) },
    ]

    static func loopProperty(_ name: String, mode: LoopMode) -> SessionProperty {
        property(name, read: { $0.queue.loop == mode ? .string("inf") : .bool(false) }, write: { value, reading in
            let on: Bool
            if case .string(let text) = value, text == "inf" || text == "force" {
                on = true
            } else if let flag = value.flagValue {
                on = flag
            } else {
                return .failure(.format("inf, yes or no"))
            }
            let loop = reading.queue.loop
            return .success(.loop(.set(on ? mode : (loop == mode ? .off : loop))))
        }, cycle: { reading in .loop(.set(reading.queue.loop == mode ? .off : mode)) })
    }

    /// `playlist/count` and `playlist/N/filename|title|id|current|playing`, as mpv has them.
    static func playlistMember(_ name: String) -> SessionProperty? {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if parts == ["playlist", "count"] { return readOnly(name) { .number(Double($0.queue.count)) } }
        guard parts.count == 3, let index = Int(parts[1]), index >= 0 else { return nil }
        let field = parts[2]
        guard ["filename", "title", "id", "current", "playing"].contains(field) else { return nil }
        return readOnly(name) { reading in
            guard reading.queue.entries.indices.contains(index) else { return nil }
            return playlistEntry(reading.queue.entries[index], reading)[field] ?? .bool(false)
        }
    }

    static func playlistEntry(_ entry: QueueEntry, _ reading: PropertyReading) -> JSONValue {
        var members: [JSONValue.Member] = [
            .init("filename", .string(entry.item.location.display)),
            .init("title", .string(entry.item.title)),
            .init("id", .number(Double(entry.id.rawValue))),
        ]
        if let label = entry.item.label { members.append(.init("alicia-label", .string(label))) }
        if entry.id == reading.current {
            members.append(.init("current", .bool(true)))
            if reading.hasItem { members.append(.init("playing", .bool(true))) }
        }
        return .object(members)
    }

    /// mpv's `metadata`: the item's tags, only those known.
    static func metadata(_ details: ItemDetails) -> JSONValue {
        var members: [JSONValue.Member] = [.init("title", .string(details.title))]
        for (key, value) in [("artist", details.artist), ("album", details.album), ("date", details.date),
                             ("comment", details.comment), ("alicia-label", details.item.label)] {
            if let value { members.append(.init(key, .string(value))) }
        }
        return .object(members)
    }

    /// mpv's `audio-params`.
    static func audioParameters(_ format: AudioFormat) -> JSONValue {
        let layout = format.channels == 1 ? "mono" : format.channels == 2 ? "stereo" : "\(format.channels)ch"
        let sample: String
        switch format.sampleType {
        case .int16: sample = "s16"
        case .int32: sample = "s32"
        case .float32: sample = "float"
        }
        return .object([
            .init("format", .string(sample)), .init("samplerate", .number(Double(format.sampleRate))),
            .init("channels", .string(layout)), .init("channel-count", .number(Double(format.channels))),
            .init("hr-channels", .string(layout)),
        ])
    }

    /// mpv's `file-format`: the container's short name (`wav`, `flac`, `ogg`, `mp3`).
    static func fileFormat(_ format: AudioFormat) -> String {
        let container = format.description.split(separator: "·").first.map { String($0).trimmingWhitespace() } ?? ""
        for (prefix, name) in [("WAV", "wav"), ("FLAC", "flac"), ("OGG", "ogg"), ("MPEG", "mp3"), ("AIFF", "aiff"), ("W64", "w64")]
        where container.uppercased().hasPrefix(prefix) {
            return name
        }
        return container.isEmpty ? "unknown" : container.lowercased()
    }

    static func sleepValue(_ timer: SleepTimer) -> JSONValue {
        switch timer {
        case .off: return .null
        case .after(let seconds): return .number(rounded(seconds, places: 3))
        case .endOfEntries(1): return .string("end")
        case .endOfChapter: return .string("chapter")
        case .endOfEntries(let count): return .string("\(count) items")
        }
    }

    /// `off`, `end`, seconds, or `30m`/`1h`/`90s`.
    static func sleepTimer(_ value: JSONValue) -> Result<SleepTimer, PropertyFailure> {
        switch value {
        case .null, .bool(false), .string("off"), .number(0): return .success(.off)
        case .string("end"): return .success(.endOfEntries(1))
        case .string("chapter"): return .success(.endOfChapter)
        default:
            guard let seconds = value.numberValue ?? value.stringValue.flatMap(duration), seconds > 0, seconds <= 86_400 else {
                return .failure(.format("seconds up to a day (or 30m, 1h), end, chapter, or off"))
            }
            return .success(.after(seconds: seconds))
        }
    }

    /// `90`, `90s`, `30m`, `1h`: seconds.
    package static func duration(_ text: String) -> Double? {
        for (unit, scale) in [("min", 60.0), ("s", 1.0), ("m", 60.0), ("h", 3600.0)] where text.hasSuffix(unit) {
            return Double(text.dropLast(unit.count)).map { $0 * scale }
        }
        return Double(text)
    }

}
