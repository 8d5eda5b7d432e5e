#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
internal import CMPRIS
import AliciaSession
import AliciaLocks

/// MPRIS on the session bus (`org.mpris.MediaPlayer2.alicia_player`), through sd-bus: media keys,
/// `playerctl` and desktop widgets. Runs on the control thread, its descriptor in the same poll;
/// properties are read from the players, changes go through the session's mailbox.
final class MPRISService {
    private let handle: OpaquePointer
    private let session: SessionView
    private let version: String
    private let remote: RemoteMailbox
    private let resolve: @Sendable (String) -> Result<[QueueItem], ControlProblem>
    /// What the properties are answered from (refreshed by the loop and before each answer).
    private var view: PropertyReading
    /// What was announced last, to send PropertiesChanged for what differs.
    private var announced: [String: String] = [:]
    /// Keeps `self` alive for the C callbacks' context.
    private var context: Unmanaged<Box>?

    static let busName = "alicia_player"
    /// The rates `Rate` takes (the speed range).
    static let minimumRate = Player.speedRange.lowerBound
    static let maximumRate = Player.speedRange.upperBound

    private init(handle: OpaquePointer, loop: ControlLoop) {
        self.handle = handle
        session = loop.view
        version = loop.hooks.version
        remote = loop.remote
        resolve = loop.hooks.resolve
        view = loop.reading()
    }

    /// Where sd-bus would find the session bus: `DBUS_SESSION_BUS_ADDRESS`, else the user bus
    /// socket in the runtime directory. Nil when neither is there (libsystemd is then never loaded).
    static func sessionBus() -> String? {
        if let address = getenv("DBUS_SESSION_BUS_ADDRESS").map({ String(cString: $0) }) {
            return address.isEmpty ? nil : address
        }
        if let runtime = getenv("XDG_RUNTIME_DIR").map({ String(cString: $0) }), access(runtime + "/bus", F_OK) == 0 {
            return "unix:path=" + runtime + "/bus"
        }
        return nil
    }

    /// Connects and takes the name; nil (said once at ALICIA_LOG=info) without a session bus.
    static func open(loop: ControlLoop) -> MPRISService? {
        guard sessionBus() != nil else {
            Log.info(.cli, "MPRIS: no session bus (DBUS_SESSION_BUS_ADDRESS is not set); going on without it")
            return nil
        }
        let box = Box()
        let context = Unmanaged.passRetained(box)
        var handlers = alicia_mpris_handlers(
            context: context.toOpaque(),
            get: { context, interface, property, reply in
                Box.from(context)?.service?.get(interface, property.map { String(cString: $0) } ?? "", reply) ?? -EINVAL
            },
            set: { context, property, value in
                Box.from(context)?.service?.set(property.map { String(cString: $0) } ?? "", value) ?? -EINVAL
            },
            call: { context, interface, method, message in
                Box.from(context)?.service?.call(interface, method.map { String(cString: $0) } ?? "", message) ?? -EINVAL
            })
        var pointer: OpaquePointer?
        var name = [CChar](repeating: 0, count: 256)
        var why = [CChar](repeating: 0, count: 256)
        let result = alicia_mpris_open(&handlers, busName, &pointer, &name, name.count, &why, why.count)
        guard result >= 0, let pointer else {
            context.release()
            Log.info(.cli, "MPRIS: not on the session bus: \(Self.text(why))")
            return nil
        }
        let service = MPRISService(handle: pointer, loop: loop)
        box.service = service
        service.context = context
        service.announced = service.values()
        Log.info(.cli, "MPRIS: on the session bus as \(Self.text(name))")
        return service
    }

    /// A NUL-terminated buffer's text.
    private static func text(_ buffer: [CChar]) -> String {
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The C side's context: a box that can outlive the service safely.
    private final class Box {
        weak var service: MPRISService?
        static func from(_ raw: UnsafeMutableRawPointer?) -> Box? {
            raw.map { Unmanaged<Box>.fromOpaque($0).takeUnretainedValue() }
        }
    }

    func close() {
        alicia_mpris_close(handle)
        context?.release()
        context = nil
    }

    var descriptor: Int32 { alicia_mpris_fd(handle) }
    var pollEvents: Int16 { Int16(alicia_mpris_events(handle)) }
    var timeout: Int32 { alicia_mpris_timeout_ms(handle) }

    /// Handles what the bus has sent; false when the connection is gone.
    func process() -> Bool {
        alicia_mpris_process(handle) >= 0
    }

    // MARK: Changes

    /// PropertiesChanged for every property whose value differs from what was announced.
    func refresh(_ view: PropertyReading) {
        self.view = view
        let now = values()
        let changed = now.keys.filter { now[$0] != announced[$0] }.sorted()
        announced = now
        guard !changed.isEmpty else { return }
        withCStrings(changed) { names in _ = alicia_mpris_changed(handle, Int32(ALICIA_MPRIS_PLAYER), names) }
    }

    /// Seeked on every jump of the position: a seek, a speed change's restart, a resume.
    func playerEvent(_ event: PlayerEvent) {
        switch event.kind {
        case .silenceSkipped(_, let toFrame):
            // Skipped silence moves the position without playing it: clients extrapolating from a
            // clock must hear of the jump.
            view = reading()
            if let rate = view.snapshot.format?.sampleRate {
                _ = alicia_mpris_seeked(handle, Int64((Double(toFrame) / Double(rate) * 1_000_000).rounded()))
            }
        case .seeked, .entryStarted:
            view = reading()
            if case .entryStarted = event.kind, view.snapshot.position < 0.5 { return }
            // The position is the one asked for (the device has not played from it yet).
            let seconds: Double
            if case .seeked(let frame) = event.kind, let rate = view.snapshot.format?.sampleRate {
                seconds = Double(frame) / Double(rate)
            } else {
                seconds = view.snapshot.position
            }
            _ = alicia_mpris_seeked(handle, Int64((seconds * 1_000_000).rounded()))
            refresh(view)
        default:
            break
        }
    }

    /// The announced properties' values as text, for comparing.
    private func values() -> [String: String] {
        let snapshot = view.snapshot
        return [
            "PlaybackStatus": playbackStatus,
            "LoopStatus": loopStatus,
            "Rate": "\(snapshot.speed)",
            "Volume": "\(volume)",
            "Metadata": "\(snapshot.entry?.rawValue ?? 0) \(view.details?.title ?? "") \(view.details?.artURL ?? "") \(view.hasItem ? snapshot.duration ?? -1 : -1)",
            "CanGoNext": "\(canGoNext)",
            "CanGoPrevious": "\(view.hasItem)",
            "CanPlay": "\(!view.queue.isEmpty)",
            "CanPause": "\(view.hasItem)",
            "CanSeek": "\(view.hasItem && snapshot.format != nil && snapshot.format?.isLive != true)",
        ]
    }

    private var playbackStatus: String {
        guard view.hasItem else { return "Stopped" }
        switch view.snapshot.state {
        case .paused: return "Paused"
        case .idle, .ended, .failed: return "Stopped"
        case .loading, .buffering, .reconnecting, .voicing, .playing: return "Playing"
        }
    }

    private var loopStatus: String {
        switch view.queue.loop {
        case .off: return "None"
        case .entry: return "Track"
        case .queue: return "Playlist"
        }
    }

    private var volume: Double { SessionProperties.rounded((view.levels.muted ? 0 : view.levels.volumePercent) / 100, places: 4) }

    private var canGoNext: Bool {
        guard let entry = view.snapshot.entry else { return false }
        return view.queue.skipTarget(after: entry) != nil
    }

    private var trackID: String {
        guard view.hasItem, let entry = view.snapshot.entry else { return "/org/mpris/MediaPlayer2/TrackList/NoTrack" }
        return "/org/mpris/MediaPlayer2/alicia_player/track/\(entry.rawValue)"
    }

    private func reading() -> PropertyReading { PropertyReading(session, version: version) }

    // MARK: Answers (called from alicia_mpris_process, on the control thread)

    private func get(_ interface: Int32, _ property: String, _ reply: OpaquePointer?) -> Int32 {
        view = reading()
        let snapshot = view.snapshot
        if interface == Int32(ALICIA_MPRIS_ROOT) {
            switch property {
            case "CanQuit": return alicia_mpris_append_bool(reply, 1)
            case "CanRaise", "HasTrackList": return alicia_mpris_append_bool(reply, 0)
            case "Identity": return alicia_mpris_append_string(reply, "Alicia Studio")
            case "SupportedUriSchemes": return appendStrings(["http", "https", "file"], reply)
            case "SupportedMimeTypes":
                return appendStrings(["audio/wav", "audio/x-wav", "audio/flac", "audio/ogg", "audio/mpeg"], reply)
            default: return -ENOENT
            }
        }
        switch property {
        case "PlaybackStatus": return alicia_mpris_append_string(reply, playbackStatus)
        case "LoopStatus": return alicia_mpris_append_string(reply, loopStatus)
        case "Rate": return alicia_mpris_append_double(reply, snapshot.speed)
        case "Volume": return alicia_mpris_append_double(reply, volume)
        case "Position": return alicia_mpris_append_int64(reply, Int64(((view.position ?? 0) * 1_000_000).rounded()))
        case "MinimumRate": return alicia_mpris_append_double(reply, Self.minimumRate)
        case "MaximumRate": return alicia_mpris_append_double(reply, Self.maximumRate)
        case "CanGoNext": return alicia_mpris_append_bool(reply, canGoNext ? 1 : 0)
        case "CanGoPrevious", "CanPause": return alicia_mpris_append_bool(reply, view.hasItem ? 1 : 0)
        case "CanPlay": return alicia_mpris_append_bool(reply, view.queue.isEmpty ? 0 : 1)
        case "CanSeek": return alicia_mpris_append_bool(reply, view.hasItem && snapshot.format != nil ? 1 : 0)
        case "CanControl": return alicia_mpris_append_bool(reply, 1)
        case "Metadata": return appendMetadata(reply)
        default: return -ENOENT
        }
    }

    private func appendMetadata(_ reply: OpaquePointer?) -> Int32 {
        let snapshot = view.snapshot
        let details = view.hasItem ? view.details : nil
        let length = details != nil ? snapshot.duration.map { Int64(($0 * 1_000_000).rounded()) } ?? -1 : -1
        let location = details?.item.location
        let fields = [details?.title, details?.mediaAlbum, details?.mediaArtist,
                      location.map { $0.isFile ? $0.url : $0.display }, details?.artURL]
        return trackID.withCString { track in
            withOptionalCStrings(fields) { pointers in
                var metadata = alicia_mpris_track(track_id: track, length_us: length, title: pointers[0], album: pointers[1],
                                                  artist: pointers[2], url: pointers[3], art_url: pointers[4])
                return alicia_mpris_append_metadata(reply, &metadata)
            }
        }
    }

    private func set(_ property: String, _ value: OpaquePointer?) -> Int32 {
        switch property {
        case "Rate":
            var rate = 0.0
            guard alicia_mpris_read_double(value, &rate) >= 0, rate.isFinite else { return -EINVAL }
            // A rate of 0 means pause, as the specification asks.
            remote.post(rate <= 0 ? .pause : .speed(.set(min(max(rate, Self.minimumRate), Self.maximumRate))))
        case "Volume":
            var volume = 0.0
            guard alicia_mpris_read_double(value, &volume) >= 0, volume.isFinite else { return -EINVAL }
            remote.post(.volume(.set(max(0, volume) * 100)))
        case "LoopStatus":
            var text: UnsafePointer<CChar>?
            guard alicia_mpris_read_string(value, CChar(UInt8(ascii: "s")), &text) >= 0, let text else { return -EINVAL }
            switch String(cString: text) {
            case "None": remote.post(.loop(.set(.off)))
            case "Track": remote.post(.loop(.set(.entry)))
            case "Playlist": remote.post(.loop(.set(.queue)))
            default: return -EINVAL
            }
        default:
            return -EPERM
        }
        refresh(reading())
        return 0
    }

    private func call(_ interface: Int32, _ method: String, _ message: OpaquePointer?) -> Int32 {
        if interface == Int32(ALICIA_MPRIS_ROOT) {
            if method == "Quit" { remote.post(.quit(status: 0, savePosition: false)) }
            return 0
        }
        switch method {
        case "Next": remote.post(.next)
        case "Previous": remote.post(.previous)
        case "Pause": remote.post(.pause)
        case "PlayPause": remote.post(.togglePause)
        case "Play":
            remote.post(.resume)
        case "Stop": remote.post(.stop)
        case "Seek":
            var offset: Int64 = 0
            guard alicia_mpris_read_int64(message, &offset) >= 0 else { return -EINVAL }
            remote.post(.seek(.by(Double(offset) / 1_000_000)))
        case "SetPosition":
            var track: UnsafePointer<CChar>?
            var position: Int64 = 0
            guard alicia_mpris_read_string(message, CChar(UInt8(ascii: "o")), &track) >= 0, let track,
                  alicia_mpris_read_int64(message, &position) >= 0 else { return -EINVAL }
            view = reading()
            // A position for another track, or outside this one, is ignored (the specification's rule).
            guard String(cString: track) == trackID, position >= 0 else { return 0 }
            if let duration = view.snapshot.duration, Double(position) / 1_000_000 > duration { return 0 }
            remote.post(.seek(.to(Double(position) / 1_000_000)))
        case "OpenUri":
            var uri: UnsafePointer<CChar>?
            guard alicia_mpris_read_string(message, CChar(UInt8(ascii: "s")), &uri) >= 0, let uri else { return -EINVAL }
            let reference = String(cString: uri)
            let resolve = self.resolve
            let remote = self.remote
            _ = NativeThread(name: "alicia-ipc-work") {
                if case .success(let items) = resolve(reference), !items.isEmpty {
                    remote.post(.load(LoadPlan(items)))
                } else {
                    Log.info(.cli, "MPRIS: OpenUri could not open what it was given")
                }
            }
        default:
            return -ENOENT
        }
        return 0
    }

    private func appendStrings(_ strings: [String], _ reply: OpaquePointer?) -> Int32 {
        withCStrings(strings) { pointers in alicia_mpris_append_strings(reply, pointers, strings.count) }
    }
}

/// `strings` as a NULL-terminated array of C strings, for the length of `body`.
private func withCStrings<R>(_ strings: [String], _ body: (UnsafeMutablePointer<UnsafePointer<CChar>?>) -> R) -> R {
    let copies = strings.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    var pointers: [UnsafePointer<CChar>?] = copies.map { UnsafePointer($0) }
    pointers.append(nil)
    return pointers.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
}

/// `texts` as C strings (nil stays NULL), for the length of `body`.
private func withOptionalCStrings<R>(_ texts: [String?], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
    let copies = texts.map { $0.map { strdup($0) } ?? nil }
    defer { copies.forEach { free($0) } }
    return body(copies.map { $0.map { UnsafePointer($0) } })
}
