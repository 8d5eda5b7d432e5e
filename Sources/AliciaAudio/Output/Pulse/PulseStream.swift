#if canImport(Glibc)
import Glibc
#endif
internal import CPulse
import AliciaLocks

/// One playback stream on the shared `PulseContext`: one per player.
///
/// Starts corked; pause corks (the sink rewinds, so uncork resumes at the exact
/// sample); seek flushes; the end drains. The played position comes from the
/// server's timing info (its read index less the sink's latency), never from
/// what was written.
final class PulseStream: AudioSink, @unchecked Sendable {
    // @unchecked: every field below `stream` is read and written only under the
    // mainloop lock, by our threads or by callbacks (which run with it held).
    private let context: PulseContext
    private let stream: OpaquePointer
    private var sampleSpec: pa_sample_spec
    private let frameBytes: Int

    private var interrupted = false
    /// What the server has been told: corked or not.
    private var corked = true
    /// The listener paused.
    private var userPaused = false
    /// The player waits for the network to refill after running dry.
    private var buffering = false
    /// Another stream has the focus (a voice note plays over a held episode).
    private var held = false
    /// A new segment (start, or after a flush) waits corked until `startThreshold`
    /// bytes are queued, so it begins without an underrun.
    private var holding = true
    private var startThreshold = 0
    /// Bytes a write waits for room for (less when the piece is smaller): see `write`.
    private var minimumWrite = 0
    private var starved = false
    private var closed = false
    /// The sink the stream plays on, and the move not yet taken (`takeMove`).
    private var device = ""
    private var move: SinkMove?
    /// Stream byte index where the current segment's first frame was written.
    private var segmentStart: Int64 = 0
    /// Bytes written in the current segment.
    private var segmentWritten: Int64 = 0

    /// Target buffer: 500 ms, so the player (or the server) may go unscheduled for almost half a
    /// second on a busy machine without an underrun; 200 ms gapped when a two-core machine was
    /// installing packages (stalls of 340–450 ms were measured). Pause, seek and hold cork and flush,
    /// so they stay immediate; what the bigger buffer delays is a change of gain (about 0.5 s).
    static let targetLatencyMicroseconds: UInt64 = 500_000
    /// A segment starts once this much is queued (the server restarts after an underrun at the same
    /// mark): prompt starts and seeks, whatever the target.
    static let prebufferMicroseconds: UInt64 = 200_000
    /// A write waits until the server has room for this much of the piece (or all of a smaller
    /// one), instead of writing whatever the server asked for: see `write`.
    static let minimumWriteMicroseconds: UInt64 = 50_000

    /// Connects a stream for `format` to `device` (nil: the default sink).
    init(context: PulseContext, format: AudioFormat, device: String?, mediaName: String, role: String = "music") throws(PlaybackError) {
        self.context = context
        let sampleFormat: pa_sample_format_t
        switch format.sampleType {
        case .int16: sampleFormat = PA_SAMPLE_S16LE
        case .int32: sampleFormat = PA_SAMPLE_S32LE
        case .float32: sampleFormat = PA_SAMPLE_FLOAT32LE
        }
        guard format.channels <= Int(PA_CHANNELS_MAX), format.sampleRate <= Int(PA_RATE_MAX) else {
            throw .audioOutput(reason: "\(format.channels) channels at \(format.sampleRate) Hz cannot be played")
        }
        sampleSpec = pa_sample_spec(format: sampleFormat, rate: UInt32(format.sampleRate), channels: UInt8(format.channels))
        frameBytes = format.bytesPerFrame
        minimumWrite = Int(pa_usec_to_bytes(Self.minimumWriteMicroseconds, &sampleSpec)) / frameBytes * frameBytes
        let props = pa_proplist_new()
        defer { pa_proplist_free(props) }
        pa_proplist_sets(props, PA_PROP_MEDIA_ROLE, role)
        pa_proplist_sets(props, PA_PROP_MEDIA_NAME, mediaName)
        pa_proplist_sets(props, PA_PROP_APPLICATION_NAME, "Alicia")

        var channelMap = pa_channel_map()
        pa_channel_map_init_extend(&channelMap, UInt32(format.channels), PA_CHANNEL_MAP_DEFAULT)
        var spec = sampleSpec
        let made: OpaquePointer? = context.withLock {
            pa_stream_new_with_proplist(context.context, mediaName, &spec, &channelMap, props)
        }
        guard let made else {
            throw .audioOutput(reason: "cannot create a stream: \(context.withLock { context.lastError })")
        }
        stream = made
        try connect(device: device)
    }

    private func connect(device: String?) throws(PlaybackError) {
        let user = Unmanaged.passUnretained(self).toOpaque()
        var attributes = pa_buffer_attr(
            maxlength: UInt32.max,
            tlength: UInt32(pa_usec_to_bytes(Self.targetLatencyMicroseconds, &sampleSpec)),
            prebuf: UInt32(pa_usec_to_bytes(Self.prebufferMicroseconds, &sampleSpec)),
            minreq: UInt32.max,
            fragsize: UInt32.max
        )
        let flags = pa_stream_flags_t(rawValue:
            PA_STREAM_START_CORKED.rawValue | PA_STREAM_ADJUST_LATENCY.rawValue |
            PA_STREAM_AUTO_TIMING_UPDATE.rawValue | PA_STREAM_NOT_MONOTONIC.rawValue)
        let failure: String? = context.withLock {
            setCallbacks(user)
            // A named sink must be there (an index is the server's to check).
            if let device, !device.allSatisfy(\.isNumber), !context.hasSink(named: device) {
                return "No such entity"
            }
            if pa_stream_connect_playback(stream, device, &attributes, flags, nil, nil) < 0 {
                return context.lastError
            }
            while true {
                let state = pa_stream_get_state(stream)
                if state == PA_STREAM_READY {
                    self.device = pa_stream_get_device_name(stream).map { String(cString: $0) } ?? device ?? ""
                    extendShortBuffer(asked: attributes)
                    let granted = pa_stream_get_buffer_attr(stream)?.pointee
                    let prebuf = Int(granted?.prebuf ?? 0)
                    let target = Int(granted?.tlength ?? 0)
                    startThreshold = prebuf > 0 && prebuf < target ? prebuf : target / 2
                    return nil
                }
                if PA_STREAM_IS_GOOD(state) == 0 { return context.lastError }
                context.wait()
            }
        }
        if let failure {
            close()
            if let device, failure.lowercased().contains("no such entity") {
                throw .audioOutput(reason: "no sink named '\(device)' (pactl list short sinks lists them)")
            }
            throw .audioOutput(reason: "cannot open a playback stream: \(failure)")
        }
    }

    /// The stream's callbacks: state and room wake the waiters; an underflow is logged once and
    /// marked until the stream starts again; a move says where it plays now. Lock held.
    private func setCallbacks(_ user: UnsafeMutableRawPointer) {
        pa_stream_set_state_callback(stream, { _, user in PulseStream.from(user).context.signal() }, user)
        pa_stream_set_write_callback(stream, { _, _, user in PulseStream.from(user).context.signal() }, user)
        pa_stream_set_underflow_callback(stream, { _, user in
            let me = PulseStream.from(user)
            // A test's capture shows the silence the sink mixed in; the log says why it is there.
            if !me.starved { Log.info(.output, "underflow: the server ran out of this stream's audio") }
            me.starved = true
            me.context.signal()
        }, user)
        pa_stream_set_started_callback(stream, { _, user in
            let me = PulseStream.from(user)
            me.starved = false
            me.context.signal()
        }, user)
        // The server moves a stream whose sink goes away (unplugged, unloaded) to the default
        // one, and a mixer can move it any time: the player says where it plays now.
        pa_stream_set_moved_callback(stream, { stream, user in
            let me = PulseStream.from(user)
            let now = pa_stream_get_device_name(stream).map { String(cString: $0) } ?? "?"
            me.move = SinkMove(from: me.move?.from ?? me.device, to: now)
            me.device = now
        }, user)
    }

    /// pipewire-pulse grants an adjusted-latency stream the latency asked for less its graph's
    /// quantum (500 ms asked: 329 ms of buffer, 171 ms of quantum), and a stall the buffer was asked
    /// to ride out is heard. A buffer granted short is asked again, larger by what was taken, once:
    /// PulseAudio grants what is asked and never gets here. Lock held.
    private func extendShortBuffer(asked: pa_buffer_attr) {
        guard let granted = pa_stream_get_buffer_attr(stream)?.pointee, granted.tlength > 0,
              granted.tlength < asked.tlength / 10 * 9 else { return }
        var larger = asked
        larger.tlength = asked.tlength + (asked.tlength - granted.tlength)
        context.finish(pa_stream_set_buffer_attr(stream, &larger, PulseContext.signalOnCompletion, context.completionUserData))
        let now = pa_stream_get_buffer_attr(stream)?.pointee.tlength ?? 0
        Log.info(.output, "the server granted \(granted.tlength) bytes of the \(asked.tlength) asked; asked \(larger.tlength), granted \(now)")
    }

    private static func from(_ user: UnsafeMutableRawPointer?) -> PulseStream {
        Unmanaged<PulseStream>.fromOpaque(user!).takeUnretainedValue()
    }

    deinit { close() }

    // MARK: AudioSink

    /// Each `pa_stream_write` becomes one block of the client's shared memory pool, in a 64 KiB
    /// slot of its own that stays resident once touched. The server asks for room one sink tick at
    /// a time (4 KiB on a pipe sink), so writing whatever it asked for spread a 500 ms buffer over
    /// 35 blocks of 4 KiB (324 KiB of the pool resident); waiting for room for the whole piece, or
    /// `minimumWrite` of a bigger one, keeps it to a dozen blocks. Wraps `pa_stream_writable_size`
    /// and `pa_stream_write`.
    func write(_ bytes: UnsafeRawBufferPointer) -> SinkResult {
        context.withLock {
            var offset = 0
            while offset < bytes.count {
                if interrupted { return .interrupted }
                if let failure = streamFailure() { return .failed(failure) }
                let writable = pa_stream_writable_size(stream)
                if writable == -1 { return .failed(.audioOutput(reason: context.lastError)) }
                let left = bytes.count - offset
                let n = writable >= min(left, minimumWrite) ? min(writable, left) / frameBytes * frameBytes : 0
                if n == 0 {
                    if holding {
                        release()
                    } else {
                        context.wait()
                    }
                    continue
                }
                if pa_stream_write(stream, bytes.baseAddress! + offset, n, nil, 0, PA_SEEK_RELATIVE) < 0 {
                    return .failed(.audioOutput(reason: context.lastError))
                }
                offset += n
                segmentWritten += Int64(n)
                if holding && segmentWritten >= Int64(startThreshold) { release() }
            }
            return .done
        }
    }

    func setPaused(_ paused: Bool) {
        context.withLock {
            userPaused = paused
            applyCork()
        }
    }

    func setBuffering(_ waiting: Bool) {
        context.withLock {
            buffering = waiting
            applyCork()
        }
    }

    /// Holds (corks) the stream for another's focus, or lets it go. Holding waits
    /// until the server has corked and refreshes the timing info, so that
    /// `playedFrames` is then exactly the frame where playback stopped.
    func setHeld(_ held: Bool) {
        context.withLock {
            guard !closed, self.held != held else { return }
            self.held = held
            guard held else {
                applyCork()
                return
            }
            if !corked {
                corked = true
                context.finish(pa_stream_cork(stream, 1, PulseContext.signalOnCompletion, context.completionUserData))
            }
            context.finish(pa_stream_update_timing_info(stream, PulseContext.signalOnCompletion, context.completionUserData))
        }
    }

    /// Renames the stream as mixers show it. Wraps `pa_stream_proplist_update`.
    func setMediaName(_ name: String) {
        context.withLock {
            guard !closed else { return }
            let props = pa_proplist_new()
            defer { pa_proplist_free(props) }
            pa_proplist_sets(props, PA_PROP_MEDIA_NAME, name)
            if let operation = pa_stream_proplist_update(stream, PA_UPDATE_REPLACE, props, nil, nil) {
                pa_operation_unref(operation)
            }
        }
    }

    /// Ends the hold on a new segment. Lock held.
    private func release() {
        holding = false
        Log.debug(.output, "segment start: \(segmentWritten) bytes queued, uncorking")
        applyCork()
    }

    /// Corks while paused or holding. Lock held. Wraps `pa_stream_cork`.
    private func applyCork() {
        let wanted = userPaused || held || holding || buffering
        guard !closed, corked != wanted else { return }
        corked = wanted
        if let operation = pa_stream_cork(stream, wanted ? 1 : 0, nil, nil) {
            pa_operation_unref(operation)
        }
    }

    /// Corks (waiting for the server) and refreshes the timing info: corked, the read index is
    /// exactly the frame that stopped. Wraps `pa_stream_cork` and `pa_stream_update_timing_info`.
    func freeze() -> Int64 {
        context.withLock {
            guard !closed else { return }
            holding = true
            if !corked {
                corked = true
                context.finish(pa_stream_cork(stream, 1, PulseContext.signalOnCompletion, context.completionUserData))
            }
            context.finish(pa_stream_update_timing_info(stream, PulseContext.signalOnCompletion, context.completionUserData))
        }
        return playedFrames()
    }

    /// Wraps `pa_stream_flush`, then refreshes the timing info so the new
    /// segment's start index is the server's.
    func flush() -> SinkResult {
        context.withLock {
            if interrupted { return .interrupted }
            if let failure = streamFailure() { return .failed(failure) }
            holding = true
            applyCork()
            Log.debug(.output, "flush")
            context.finish(pa_stream_flush(stream, PulseContext.signalOnCompletion, context.completionUserData))
            context.finish(pa_stream_update_timing_info(stream, PulseContext.signalOnCompletion, context.completionUserData))
            if let timing = pa_stream_get_timing_info(stream) {
                segmentStart = timing.pointee.write_index_corrupt == 0 ? timing.pointee.write_index : timing.pointee.read_index
            }
            segmentWritten = 0
            starved = false
            Log.debug(.output, "flushed, timing refreshed")
            return .done
        }
    }

    /// Wraps `pa_stream_drain` (after `pa_stream_trigger`, so a stream shorter
    /// than the prebuffer starts).
    func drain() -> SinkResult { drain(reckoned: false) }

    /// A drain that also ends when the server's own timing says the audio has played: what it
    /// holds ahead of its read index, plus the sink's latency, from a fresh timing update.
    /// pipewire-pulse acknowledges a drain about 110 ms after that (PulseAudio within a few ms),
    /// and a voice note's end resumes the episode: that much silence after every note.
    func drainForHandoff() -> SinkResult { drain(reckoned: true) }

    private func drain(reckoned: Bool) -> SinkResult {
        context.withLock {
            if interrupted { return .interrupted }
            if let failure = streamFailure() { return .failed(failure) }
            if holding { release() }
            if !corked, let trigger = pa_stream_trigger(stream, nil, nil) { pa_operation_unref(trigger) }
            let operation = pa_stream_drain(stream, PulseContext.signalOnCompletion, context.completionUserData)
            var playOut = reckoned && !corked ? PlayOut(due: playOutTime()) : PlayOut(due: nil)
            defer { playOut.cancel(context) }
            let completed = context.finish(operation, unless: {
                interrupted || streamFailure() != nil || playOut.isOver(self)
            })
            if completed || (!interrupted && streamFailure() == nil && playOut.over) {
                if !completed { Log.debug(.output, "drained by the server's timing, before its acknowledgement") }
                return .done
            }
            if interrupted { return .interrupted }
            return .failed(streamFailure() ?? .audioOutput(reason: "drain failed: \(context.lastError)"))
        }
    }

    /// A drain's end by the server's timing: due when what it held ahead of its read index (and the
    /// sink's latency) has had time to play, and over once a fresh timing update shows the read
    /// index at the end of what was written, asked again every 5 ms from then. pipewire-pulse takes
    /// a stream's audio a quantum at a time (up to 2,048 frames) and reports no sink latency: the
    /// reckoning alone was up to a quantum early (a resumed episode overlapped a note's last 128
    /// frames), while a read index at the end means the last of it is in the graph's current cycle,
    /// so what plays next comes in a later one.
    private struct PlayOut {
        var due: pa_usec_t?
        var over = false
        var wake: OpaquePointer?

        init(due: pa_usec_t?) {
            self.due = due
        }

        /// Whether it is over; schedules the next look when it is not. Lock held.
        mutating func isOver(_ stream: PulseStream) -> Bool {
            guard let due, !over else { return over }
            if wake == nil { wake = stream.context.wake(at: due) }
            guard pa_rtclock_now() >= due else { return false }
            if stream.readIndexAtEnd() {
                over = true
                return true
            }
            cancel(stream.context)
            self.due = pa_rtclock_now() + 5_000
            return false
        }

        mutating func cancel(_ context: PulseContext) {
            if let wake { context.cancelWake(wake) }
            wake = nil
        }
    }

    /// When what was written will have played (libpulse's monotonic clock), by the server's
    /// timing: what it holds ahead of its read index, and the sink's latency. Nil when it cannot
    /// say (not playing yet, an index it does not know). Call with the lock held.
    private func playOutTime() -> pa_usec_t? {
        guard context.finish(pa_stream_update_timing_info(stream, PulseContext.signalOnCompletion, context.completionUserData)),
              let timing = pa_stream_get_timing_info(stream)?.pointee, timing.playing != 0,
              timing.write_index_corrupt == 0, timing.read_index_corrupt == 0 else { return nil }
        let ahead = UInt64(max(0, timing.write_index - timing.read_index))
        return pa_rtclock_now() + pa_bytes_to_usec(ahead, &sampleSpec) + timing.sink_usec
    }

    /// Whether a fresh timing update shows the server's read index at the end of what was written.
    /// Call with the lock held.
    private func readIndexAtEnd() -> Bool {
        guard context.finish(pa_stream_update_timing_info(stream, PulseContext.signalOnCompletion, context.completionUserData)),
              let timing = pa_stream_get_timing_info(stream)?.pointee,
              timing.write_index_corrupt == 0, timing.read_index_corrupt == 0 else { return false }
        return timing.read_index >= timing.write_index
    }

    func interrupt() {
        context.withLock {
            interrupted = true
            context.signal()
        }
    }

    func clearInterrupt() {
        context.withLock { interrupted = false }
    }

    /// The server's read index, less what the sink still holds, plus the time
    /// since that was measured while playing; clamped to what was written.
    /// Wraps `pa_stream_get_timing_info`.
    func playedFrames() -> Int64 {
        context.withLock {
            guard !closed, let timing = pa_stream_get_timing_info(stream)?.pointee else { return 0 }
            var index = timing.read_index
            if !corked && timing.playing != 0 {
                var now = timeval()
                gettimeofday(&now, nil)
                var measured = timing.timestamp
                let elapsed = max(0, min(Int64(pa_timeval_diff(&now, &measured)), 2_000_000))
                let ahead = Int64(timing.transport_usec) + elapsed - Int64(timing.sink_usec)
                index += ahead >= 0
                    ? Int64(pa_usec_to_bytes(UInt64(ahead), &sampleSpec))
                    : -Int64(pa_usec_to_bytes(UInt64(-ahead), &sampleSpec))
            }
            let played = min(max(0, index - segmentStart), segmentWritten)
            return played / Int64(frameBytes)
        }
    }

    var isStarved: Bool { context.withLock { starved } }

    /// Clears the callbacks, then disconnects: no callback can reach a freed
    /// stream. Idempotent. Wraps `pa_stream_disconnect`.
    func close() {
        context.withLock {
            guard !closed else { return }
            closed = true
            pa_stream_set_state_callback(stream, nil, nil)
            pa_stream_set_write_callback(stream, nil, nil)
            pa_stream_set_underflow_callback(stream, nil, nil)
            pa_stream_set_started_callback(stream, nil, nil)
            pa_stream_set_moved_callback(stream, nil, nil)
            pa_stream_disconnect(stream)
            pa_stream_unref(stream)
            context.signal()
        }
    }

    func takeMove() -> SinkMove? {
        context.withLock {
            defer { move = nil }
            return move
        }
    }

    private func streamFailure() -> PlaybackError? {
        if closed { return .audioOutput(reason: "the stream is closed") }
        let state = pa_stream_get_state(stream)
        if PA_STREAM_IS_GOOD(state) != 0 { return nil }
        let context = pa_context_get_state(self.context.context)
        if PA_CONTEXT_IS_GOOD(context) == 0 {
            return .noAudioServer(reason: "lost the connection to the server: \(self.context.lastError)")
        }
        return .audioOutput(reason: "the stream failed (\(self.context.lastError))")
    }
}
