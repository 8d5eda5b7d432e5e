#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaJSON
import AliciaSession

/// The player as the control socket and MPRIS see it at one moment: read from any thread
/// (the players are thread-safe), never through the session's own thread. The queue and the voice
/// note are read only when a property needs them (a status bar's `time-pos` needs neither).
final class PlaybackView {
    let snapshot: PlayerSnapshot
    private let player: Player
    private let voiceNotes: VoiceNotes?

    init(player: Player, voiceNotes: VoiceNotes?) {
        snapshot = player.snapshot()
        self.player = player
        self.voiceNotes = voiceNotes
    }

    lazy var queue: PlayQueue = player.queue
    /// The voice note playing, if any.
    lazy var voice: String? = voiceNotes?.nowPlaying.title

    var hasItem: Bool { snapshot.item != nil && snapshot.state != .idle }

    /// Seconds into the item heard, while there is one.
    var position: Double? { hasItem && snapshot.format != nil ? snapshot.position : nil }
}

/// The properties of the control socket: mpv's names where mpv has one, `alicia-…` for ours.
enum RemoteProperties {
    /// Every property `get_property` knows, for `ctl` and the tests.
    static let names = [
        "pause", "time-pos", "playback-time", "duration", "percent-pos", "speed", "volume", "media-title", "filename",
        "path", "playlist", "playlist-pos", "playlist-count", "idle-active", "eof-reached", "demuxer-cache-duration",
        "core-idle", "loop-playlist", "loop-file", "mpv-version",
        "alicia-label", "alicia-state", "alicia-voice", "alicia-skip-silence", "alicia-time-saved", "alicia-sleep",
        "alicia-loudness", "alicia-loudness-gain",
    ]

    /// Properties that change with every frame: observers hear of them at most once a second.
    static let continuous: Set<String> = ["time-pos", "playback-time", "percent-pos", "demuxer-cache-duration"]

    static func get(_ name: String, _ view: PlaybackView, version: String) -> Result<JSONValue, IPCFailure> {
        let snapshot = view.snapshot
        switch name {
        case "pause":
            return .success(.bool(snapshot.state == .paused))
        case "time-pos", "playback-time":
            guard let position = view.position else { return .failure(IPCFailure(.propertyUnavailable)) }
            return .success(.number(rounded(position)))
        case "duration":
            guard view.hasItem, let duration = snapshot.duration else { return .failure(IPCFailure(.propertyUnavailable)) }
            return .success(.number(rounded(duration)))
        case "percent-pos":
            guard let position = view.position, let duration = snapshot.duration, duration > 0 else {
                return .failure(IPCFailure(.propertyUnavailable))
            }
            return .success(.number(rounded(min(100, position / duration * 100))))
        case "speed":
            return .success(.number(snapshot.speed))
        case "volume":
            return .success(.number(rounded(VolumeScale.percent(linear: snapshot.volume), places: 2)))
        case "media-title":
            guard let item = snapshot.item else { return .failure(IPCFailure(.propertyUnavailable)) }
            return .success(.string(item.title))
        case "filename":
            guard let item = snapshot.item else { return .failure(IPCFailure(.propertyUnavailable)) }
            return .success(.string(fileName(item.location)))
        case "path":
            guard let item = snapshot.item else { return .failure(IPCFailure(.propertyUnavailable)) }
            return .success(.string(item.location.display))
        case "playlist":
            let current = view.queue.currentID ?? snapshot.entry
            return .success(.array(view.queue.entries.map { entry in
                var members: [JSONValue.Member] = [
                    .init("filename", .string(entry.item.location.display)),
                    .init("title", .string(entry.item.title)),
                    .init("id", .number(Double(entry.id.rawValue))),
                ]
                if let label = entry.item.label { members.append(.init("alicia-label", .string(label))) }
                if entry.id == current {
                    members.append(.init("current", .bool(true)))
                    if view.hasItem { members.append(.init("playing", .bool(true))) }
                }
                return .object(members)
            }))
        case "playlist-pos":
            let current = view.queue.currentID ?? snapshot.entry
            return .success(.number(Double(current.flatMap(view.queue.index(of:)) ?? -1)))
        case "playlist-count":
            return .success(.number(Double(view.queue.count)))
        case "idle-active":
            return .success(.bool(snapshot.state == .idle || view.queue.isEmpty))
        case "eof-reached":
            return .success(.bool(snapshot.state == .ended))
        case "demuxer-cache-duration":
            guard view.hasItem else { return .failure(IPCFailure(.propertyUnavailable)) }
            return .success(.number(rounded(snapshot.bufferedAhead)))
        case "core-idle":
            return .success(.bool(snapshot.state != .playing))
        case "loop-playlist":
            return .success(view.queue.loop == .queue ? .string("inf") : .bool(false))
        case "loop-file":
            return .success(view.queue.loop == .entry ? .string("inf") : .bool(false))
        case "mpv-version":
            return .success(.string("alicia-player \(version)"))
        case "alicia-label":
            return .success(.string(snapshot.item?.label))
        case "alicia-state":
            return .success(.string(snapshot.state.rawValue))
        case "alicia-voice":
            return .success(.string(view.voice))
        case "alicia-skip-silence":
            return .success(.string(view.snapshot.silenceSkipping.rawValue))
        case "alicia-time-saved":
            return .success(.number(rounded(snapshot.silenceSavedTotal, places: 3)))
        case "alicia-sleep":
            switch snapshot.sleepTimer {
            case .off: return .success(.null)
            case .after(let seconds): return .success(.number(rounded(seconds, places: 3)))
            case .endOfEntries(1): return .success(.string("end"))
            case .endOfEntries(let count): return .success(.string("\(count) items"))
            }
        case "alicia-loudness":
            switch snapshot.loudness {
            case .off: return .success(.string("off"))
            case .target(let lufs): return .success(.number(lufs))
            }
        case "alicia-loudness-gain":
            return .success(.number(rounded(snapshot.loudnessGain, places: 2)))
        default:
            return .failure(IPCFailure(.propertyNotFound, "no property '\(name.prefix(40))'"))
        }
    }

    /// Microseconds are plenty (and keep 83.42 from printing as 83.420000000000002).
    static func rounded(_ value: Double, places: Double = 6) -> Double {
        let scale = pow(10, places)
        return (value * scale).rounded() / scale
    }

    /// The name of the file an item plays, without its query.
    static func fileName(_ location: MediaLocation) -> String {
        let path = location.display.split(separator: "?").first.map(String.init) ?? location.display
        return MediaLocation.percentDecoded(path.split(separator: "/").last.map(String.init) ?? path)
    }
}
