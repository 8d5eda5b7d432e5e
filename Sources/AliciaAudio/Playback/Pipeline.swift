#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// One stream being played: fetch → decode → sink, driven by a feeder thread
/// of its own that owns the decoder and the write side of the sink.
///
/// Commands (pause, seek, stop) are recorded in `control` and the feeder is
/// woken by interrupting whatever it blocks on (a read of the fetcher or a write
/// to the sink). Lock order: `control`, then the fetcher's or PulseAudio's lock;
/// never the reverse.
final class Pipeline: @unchecked Sendable {
    // @unchecked: `control` is lock-guarded; `decodedFrame` is atomic; the fields
    // marked "feeder thread only" are touched by `run` alone.

    struct Control {
        var state: PlayerState = .loading
        var paused = false
        /// Held for another player's focus (a voice note over this episode).
        var held = false
        var volume = 1.0
        /// The speed asked for (1 = as recorded).
        var speed = 1.0
        /// The speed the sink's current segment plays at: each frame it played is this many of the source's.
        var segmentSpeed = 1.0
        var pendingSeek: Int64?
        var stopRequested = false
        var format: AudioFormat?
        /// Frame of the stream where the sink's current segment begins.
        var segmentBase: Int64 = 0
        /// Frame reached at the end (position after draining).
        var endFrame: Int64?
        var error: PlaybackError?
        var truncated = false
        var sink: (any AudioSink)?
        /// Bytes per second of the source file, for read-ahead and buffered time.
        var sourceByteRate: Double = 0
    }

    let location: MediaLocation
    private let configuration: PlayerConfiguration
    private let start: StartPosition?
    private let fetcher: RangeFetcher
    private let control = ConditionLock(Control())
    private let post: @Sendable (PlayerEvent) -> Void
    private var thread: NativeThread?
    /// Frame index of the next frame the decoder will produce.
    private let decodedFrame = Atomic<Int64>(0)

    // Feeder thread only.
    private var decoder: SndFile?
    /// Made the first time a segment plays at other than 1×, then kept.
    private var changer: SpeedChanger?
    /// The speed of the segment being fed: the feeder's copy of `Control.segmentSpeed`, read for
    /// every chunk without the lock. At 1× the changer is not used.
    private var feedSpeed = 1.0

    /// Frames decoded per write to the sink: 2048 (43 ms at 48 kHz).
    static let chunkFrames = 2048

    init(location: MediaLocation, start: StartPosition?, configuration: PlayerConfiguration,
         post: @escaping @Sendable (PlayerEvent) -> Void) throws(PlaybackError) {
        self.location = location
        self.start = start
        self.configuration = configuration
        self.post = post
        // Until the format is known, a small window: enough for any header.
        fetcher = try RangeFetcher(location: location, readAhead: 256 * 1024)
    }

    func begin() {
        fetcher.start()
        thread = NativeThread(name: "alicia-feeder") { [self] in
            run()
        }
    }

    // MARK: Commands (any thread)

    func setPaused(_ paused: Bool) {
        let changed = control.update { c -> PlayerState? in
            guard c.paused != paused else { return nil }
            c.paused = paused
            c.sink?.setPaused(paused)
            if paused && (c.state == .playing || c.state == .buffering) {
                c.state = .paused
                return .paused
            }
            if !paused && c.state == .paused {
                c.state = .playing
                return .playing
            }
            return nil
        }
        if let changed { post(.stateChanged(changed)) }
    }

    var isPaused: Bool { control.withLock { $0.paused } }

    /// Holds playback for another player's focus, or lets it go; returns the
    /// exact frame where playback now stands. Independent of pause: a paused
    /// stream stays paused when released.
    func setHeld(_ held: Bool) -> Int64 {
        control.withLock { c in
            c.held = held
            c.sink?.setHeld(held)
        }
        return snapshot().positionFrames
    }

    func setVolume(_ linear: Double) {
        control.withLock { c in
            c.volume = linear
            c.sink?.setVolume(linear)
        }
    }

    /// Plays on at `speed` (1 = as recorded) from the frame playing now. A new speed starts a new
    /// segment, as a seek does, so the position stays exact and what was queued at the old speed
    /// is not heard.
    func setSpeed(_ speed: Double) {
        control.update { c in
            guard c.speed != speed else { return }
            c.speed = speed
            guard let sink = c.sink, c.endFrame == nil, c.state != .failed else { return }
            if c.pendingSeek == nil {
                c.pendingSeek = c.segmentBase + Self.sourceFrames(sink.playedFrames(), at: c.segmentSpeed)
            }
            fetcher.interruptReader()
            sink.interrupt()
        }
    }

    /// Source frames for `played` frames of a segment at `speed`.
    private static func sourceFrames(_ played: Int64, at speed: Double) -> Int64 {
        speed == 1 ? played : Int64((Double(played) * speed).rounded())
    }

    /// Seeks to `frame` (clamped to the stream).
    func seek(toFrame frame: Int64) {
        control.update { c in
            var target = max(0, frame)
            if let frames = c.format?.frames { target = min(target, frames) }
            c.pendingSeek = target
            fetcher.interruptReader()
            c.sink?.interrupt()
        }
    }

    func stop() {
        control.update { c in
            c.stopRequested = true
            fetcher.interruptReader()
            c.sink?.interrupt()
        }
        thread?.join()
        thread = nil
        control.withLock { c in
            c.sink?.close()
            c.sink = nil
        }
        fetcher.close()
    }

    /// Waits until the stream has ended or failed, or the timeout passes.
    func waitUntilFinished(timeout: Duration) -> Bool {
        control.withLock(waitingUntil: { $0.state == .ended || $0.state == .failed }, timeout: timeout) {
            $0.state == .ended || $0.state == .failed
        }
    }

    func snapshot() -> PlayerSnapshot {
        var snapshot = PlayerSnapshot()
        let (base, end, sink, rate, speed) = control.withLock { c -> (Int64, Int64?, (any AudioSink)?, Double, Double) in
            snapshot.state = c.state
            snapshot.format = c.format
            snapshot.error = c.error
            snapshot.truncated = c.truncated
            snapshot.duration = c.format?.duration
            snapshot.isHeld = c.held
            snapshot.volume = c.volume
            snapshot.speed = c.speed
            return (c.segmentBase, c.endFrame, c.sink, c.sourceByteRate, c.segmentSpeed)
        }
        if let end {
            snapshot.positionFrames = end
        } else if let sink, let format = snapshot.format {
            snapshot.positionFrames = base + Self.sourceFrames(sink.playedFrames(), at: speed)
            let decoded = decodedFrame.load(ordering: .relaxed)
            let queued = Double(max(0, decoded - snapshot.positionFrames)) / Double(format.sampleRate)
            let fetched = rate > 0 ? Double(fetcher.bufferedBytes) / rate : 0
            snapshot.bufferedAhead = queued + fetched
        } else {
            snapshot.positionFrames = base
        }
        if let format = snapshot.format {
            snapshot.position = Double(snapshot.positionFrames) / Double(format.sampleRate)
        }
        snapshot.fetch = fetcher.statistics
        return snapshot
    }

    // MARK: Feeder thread

    private func run() {
        guard let format = open() else { return }
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: Self.chunkFrames * format.bytesPerFrame, alignment: 16)
        defer { buffer.deallocate() }
        feed(format: format, buffer: buffer)
    }

    /// Opens the decoder and the sink, and goes to the start position.
    private func open() -> AudioFormat? {
        var decoder: SndFile?
        while decoder == nil {
            do {
                decoder = try SndFile(source: fetcher)
            } catch {
                if stopRequested { return nil }
                if error.code == SndfileError.interrupted {
                    // A seek while loading: it is taken once playback starts.
                    fetcher.clearInterrupt()
                    continue
                }
                fail(fetcher.failure ?? .cannotDecode(url: location.display, reason: error.message))
                return nil
            }
        }
        guard let decoder else { return nil }
        self.decoder = decoder
        let format = decoder.format
        let byteRate = sourceByteRate(format)
        // The read-ahead is all the audio fetched ahead of what is heard. Past the ring, the sink's
        // buffer (its 200 ms target) and the chunk the feeder holds (2048 frames) keep some of it.
        let downstream = Double(PulseStream.targetLatencyMicroseconds) / 1_000_000
            + Double(Self.chunkFrames) / Double(format.sampleRate)
        let ringSeconds = max(0, configuration.readAheadSeconds - downstream)
        let readAhead = min(configuration.readAheadMaximumBytes, Int(ringSeconds * byteRate))
        fetcher.setReadAhead(bytes: readAhead)
        post(.formatKnown(format))
        Log.info(.decode, "\(location.display): \(format.description), \(format.sampleRate) Hz, \(format.channels) ch, read-ahead \(readAhead) bytes")

        let sink: PulseStream
        do {
            sink = try PulseStream(context: PulseContext.shared(), format: format, device: configuration.device,
                                   mediaName: configuration.mediaName, role: configuration.role)
        } catch {
            fail(error)
            return nil
        }
        var target: Int64 = 0
        if let start {
            switch start {
            case .seconds(let seconds): target = Int64((seconds * Double(format.sampleRate)).rounded())
            case .fraction(let fraction): target = Int64((fraction * Double(format.frames ?? 0)).rounded())
            }
            if let frames = format.frames { target = min(max(0, target), frames) }
        }
        if target > 0 && !decoder.seek(toFrame: target) {
            sink.close()
            fail(.cannotDecode(url: location.display, reason: "cannot seek to frame \(target): \(decoder.lastError)"))
            return nil
        }
        decodedFrame.store(target, ordering: .relaxed)
        let (state, speed) = control.update { c -> (PlayerState, Double) in
            c.format = format
            c.sourceByteRate = byteRate
            c.segmentBase = target
            c.segmentSpeed = c.speed
            c.sink = sink
            sink.setPaused(c.paused)
            if c.held { sink.setHeld(true) }
            if c.volume != 1 { sink.setVolume(c.volume) }
            if c.stopRequested { sink.interrupt() }
            c.state = c.paused ? .paused : .buffering
            return (c.state, c.speed)
        }
        guard prepareSpeed(speed, format: format) else { return nil }
        post(.stateChanged(state))
        return format
    }

    /// Sets up the feed of a new segment at `speed`: the changer made or emptied, or left idle at 1×.
    /// False (after failing the stream) only when memory runs out.
    private func prepareSpeed(_ speed: Double, format: AudioFormat) -> Bool {
        feedSpeed = speed
        guard speed != 1 else { return true }
        if let changer, changer.reset(speed: speed) { return true }
        changer = SpeedChanger(format: format, maxFrames: Self.chunkFrames, speed: speed)
        if changer == nil { fail(.audioOutput(reason: "out of memory changing the speed")) }
        return changer != nil
    }

    /// Writes decoded frames to the sink, through the speed changer when not at 1×.
    private func write(_ pcm: UnsafeRawBufferPointer, to sink: any AudioSink) -> SinkResult {
        guard feedSpeed != 1, let changer else { return sink.write(pcm) }
        return changer.process(pcm) { sink.write($0) }
    }

    private func feed(format: AudioFormat, buffer: UnsafeMutableRawPointer) {
        var reachedEnd = false
        while true {
            let command = control.withLock { c -> (stop: Bool, seek: Int64?, sink: (any AudioSink)?) in
                let seek = c.pendingSeek
                if seek != nil || c.stopRequested {
                    c.pendingSeek = nil
                    fetcher.clearInterrupt()
                    c.sink?.clearInterrupt()
                }
                return (c.stopRequested, seek, c.sink)
            }
            guard !command.stop, let sink = command.sink else { return }
            if let target = command.seek {
                guard reposition(to: target, sink: sink, format: format) else { return }
                reachedEnd = false
                continue
            }
            if reachedEnd {
                // Ended: wait for a seek (which plays again) or a stop.
                control.withLock(waitingUntil: { $0.pendingSeek != nil || $0.stopRequested }) { _ in }
                continue
            }
            guard let decoder else {
                if !reopenDecoder(at: decodedFrame.load(ordering: .relaxed)) { return }
                continue
            }
            let frames = decoder.read(into: buffer, frames: Self.chunkFrames)
            if frames > 0 {
                decodedFrame.add(Int64(frames), ordering: .relaxed)
                switch write(UnsafeRawBufferPointer(start: buffer, count: frames * format.bytesPerFrame), to: sink) {
                case .done:
                    markPlaying()
                case .interrupted:
                    continue
                case .failed(let error):
                    fail(error)
                    return
                }
            }
            if frames == Self.chunkFrames { continue }
            if decoder.interrupted {
                // A seek or stop cut a read short: the decoder's state is unknown.
                if !reopenDecoder(at: decodedFrame.load(ordering: .relaxed)) { return }
                continue
            }
            if feedSpeed != 1, let changer {
                // What the changer still holds is the end of the stream.
                switch changer.finish(emit: { sink.write($0) }) {
                case .done: break
                case .interrupted: continue
                case .failed(let error):
                    fail(error)
                    return
                }
            }
            switch sink.drain() {
            case .done:
                finishStream(format: format)
                reachedEnd = true
            case .interrupted:
                continue
            case .failed(let error):
                fail(error)
                return
            }
        }
    }

    private func markPlaying() {
        let changed = control.withLock { c -> Bool in
            guard c.state == .buffering && !c.paused else { return false }
            c.state = .playing
            return true
        }
        if changed { post(.stateChanged(.playing)) }
    }

    /// Everything decodable has been played: ended, truncated, or failed part-way.
    private func finishStream(format: AudioFormat) {
        let decoded = decodedFrame.load(ordering: .relaxed)
        let fetchFailure = fetcher.failure
        let shortOfHeader = format.frames.map { decoded < $0 } ?? false
        let truncated = (decoder?.isTruncated ?? false) || shortOfHeader
        if let fetchFailure, shortOfHeader {
            control.update { c in c.endFrame = decoded }
            fail(fetchFailure)
            return
        }
        control.update { c in
            c.endFrame = decoded
            c.truncated = truncated
            c.state = .ended
        }
        post(.ended(truncated: truncated))
        post(.stateChanged(.ended))
    }

    /// Moves playback to `target`: flush what is queued, move the decoder, start a new segment.
    private func reposition(to target: Int64, sink: any AudioSink, format: AudioFormat) -> Bool {
        Log.debug(.engine, "seek to frame \(target): flushing")
        switch sink.flush() {
        case .done, .interrupted: break
        case .failed(let error):
            fail(error)
            return false
        }
        if let decoder, !decoder.interrupted, decoder.seek(toFrame: target), !decoder.interrupted {
            // Moved in place.
        } else if !reopenDecoder(at: target) {
            return false
        }
        decodedFrame.store(target, ordering: .relaxed)
        Log.debug(.engine, "seek to frame \(target): decoder moved")
        let (state, speed) = control.update { c -> (PlayerState, Double) in
            c.segmentBase = target
            c.segmentSpeed = c.speed
            c.endFrame = nil
            if c.state == .ended || c.state == .playing { c.state = c.paused ? .paused : .buffering }
            return (c.state, c.speed)
        }
        guard prepareSpeed(speed, format: format) else { return false }
        post(.seeked(toFrame: target))
        post(.stateChanged(state))
        return true
    }

    /// Opens the decoder again (the header comes from the fetcher's cache) and
    /// seeks. Returns false after a failure; true with no decoder when a newer
    /// command interrupted it (the feed loop takes that command next).
    private func reopenDecoder(at frame: Int64) -> Bool {
        decoder = nil
        while true {
            if commandPending { return true }
            do {
                let reopened = try SndFile(source: fetcher)
                if frame > 0 && !reopened.seek(toFrame: frame) {
                    if reopened.interrupted { continue }
                    fail(.cannotDecode(url: location.display, reason: "cannot seek to frame \(frame): \(reopened.lastError)"))
                    return false
                }
                if reopened.interrupted { continue }
                decoder = reopened
                return true
            } catch {
                if commandPending { return true }
                fail(fetcher.failure ?? .cannotDecode(url: location.display, reason: error.message))
                return false
            }
        }
    }

    /// A seek or stop waits to be taken (the fetcher and sink are interrupted meanwhile).
    private var commandPending: Bool {
        control.withLock { $0.pendingSeek != nil || $0.stopRequested }
    }

    private var stopRequested: Bool { control.withLock { $0.stopRequested } }

    private func fail(_ error: PlaybackError) {
        Log.info(.engine, "failed: \(error.message)")
        control.update { c in
            c.error = error
            c.state = .failed
        }
        post(.failed(error))
        post(.stateChanged(.failed))
    }

    /// Bytes per second of the file: size over duration where both are known
    /// (right for compressed formats too), else the PCM rate.
    private func sourceByteRate(_ format: AudioFormat) -> Double {
        if let size = fetcher.length(), let duration = format.duration, duration > 0 {
            return Double(size) / duration
        }
        return Double(format.sampleRate * format.bytesPerFrame)
    }
}
