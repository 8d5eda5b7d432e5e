import Dispatch
import Foundation
import AliciaLocks
import Synchronization

/// A PulseAudio sink of its own whose output the test reads: `module-pipe-sink` writing raw PCM into
/// a FIFO in a private temp directory, read continuously into memory by a background thread from
/// before playback starts until ``finish(quietFor:timeout:)``.
///
/// What a player sends to this sink at 100 % volume in the sink's own sample spec comes out bit-exact,
/// preceded and followed by silence. Every capture has a unique sink name, so tests run in parallel.
///
/// `use_system_clock_for_timing=yes` paces the sink in real time; without it the sink renders as fast
/// as the reader reads and every stream underruns. With it the sink also keeps writing silence in
/// real time while no stream is connected (unless module-suspend-on-idle suspends it), so "quiet" below
/// means "nothing but zero bytes", not "no bytes".
///
/// Reading a failed capture: when the player's stream runs dry (it was not scheduled for longer than
/// the ~200 ms it has queued), the sink keeps its clock and mixes silence in whole render blocks of
/// ~21 ms (1023 frames of 48 kHz 16-bit stereo): a silent run in the middle. When this reader falls
/// behind and the pipe fills, the sink drops what does not fit instead (module-pipe-sink.c,
/// `process_render_use_timing`): frames missing, never silence inserted.
public final class PipeSinkCapture: Sendable {
    public enum SampleFormat: String, Sendable {
        case s16le, float32le

        public var bytesPerSample: Int {
            self == .s16le ? 2 : 4
        }
    }

    public let sinkName: String
    public let format: SampleFormat
    public let rate: Int
    public let channels: Int
    public var moduleIndex: Int { module.withLock { $0 } }
    private let module: Locked<Int>
    /// The PulseAudio server the sink is on (nil: the one libpulse finds).
    public let server: String?
    public let fifoPath: String

    private let directory: TemporaryDirectory
    private let reader: FIFOReader
    private let tornDown = Atomic<Bool>(false)

    private static let counter = Atomic<Int>(0)

    /// The FIFO's capacity: 1 MiB (Linux's default pipe-max-size), 5.4 s of 48 kHz 16-bit stereo
    /// where the default 64 KiB holds 341 ms, so that a reader slowed down by a busy machine or a
    /// sanitizer catches up instead of making the sink drop audio.
    private static let pipeCapacity: Int32 = 1 << 20
    /// `F_SETPIPE_SZ` from <linux/fcntl.h>, which Swift's Glibc does not import (it needs _GNU_SOURCE).
    private static let setPipeSize: Int32 = 1031

    /// Loads the sink and starts reading. Throws (a failing test, never a skip) if no PulseAudio
    /// server answers. Async: its `pactl load-module` runs on a Dispatch worker, not on one of the
    /// two threads of the cooperative pool every test's tasks share (a whole suite starting its
    /// captures at once held the pool for seconds, and a test then acted after its player had ended).
    public init(format: SampleFormat = .s16le, rate: Int = 48_000, channels: Int = 2, server: String? = nil) async throws {
        self.server = server
        self.format = format
        self.rate = rate
        self.channels = channels
        let serial = Self.counter.wrappingAdd(1, ordering: .relaxed).newValue
        sinkName = "alicia_capture_\(getpid())_\(serial)"
        directory = try TemporaryDirectory(prefix: "capture")
        fifoPath = directory.file("sink.fifo")

        // Made here rather than by the module so that it is 0666 whatever the umask: a desktop
        // PulseAudio running as another user can then open it. The module uses an existing FIFO.
        guard mkfifo(fifoPath, 0o666) == 0, chmod(fifoPath, 0o666) == 0 else {
            throw HarnessError("mkfifo \(fifoPath) failed: \(String(cString: strerror(errno)))")
        }
        // O_NONBLOCK: opening a FIFO's read end blocks until a writer exists; the reader thread
        // polls anyway. Reading starts before the module opens the FIFO, so that the pipe never
        // fills (the sink would then drop audio to keep its clock).
        let fd = open(fifoPath, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            throw HarnessError("cannot open \(fifoPath): \(String(cString: strerror(errno)))")
        }
        // The pipe keeps this size while any end is open; the module opens the other end later.
        // A smaller limit (an unprivileged user with pipe-max-size lowered) leaves the default.
        _ = fcntl(fd, Self.setPipeSize, Self.pipeCapacity)
        reader = FIFOReader(fd: fd, name: "capture \(sinkName)", frameBytes: format.bytesPerSample * channels)
        let arguments = Self.moduleArguments(fifoPath, sinkName, format, rate, channels)
        do {
            module = Locked(try await BlockingWork.run {
                if server == nil { try TestEnvironment.requirePulseAudio() }
                return try Pactl.loadModule("module-pipe-sink", arguments, server: server)
            })
        } catch {
            reader.stop()
            throw error
        }
    }

    deinit {
        tearDown()
    }

    private static func moduleArguments(_ fifo: String, _ sink: String, _ format: SampleFormat, _ rate: Int, _ channels: Int) -> [String] {
        // node.always-process: under pipewire-pulse an idle sink is suspended, and a stream that
        // started it again lost its first quantum now and then (a capture short by 2,048 frames at
        // its start); kept running, it renders as PulseAudio's does. PulseAudio keeps the property
        // and nothing more.
        ["file=\(fifo)", "sink_name=\(sink)", "format=\(format.rawValue)", "rate=\(rate)", "channels=\(channels)",
         "use_system_clock_for_timing=yes", "sink_properties=node.always-process=true"]
    }

    /// Loads the sink again, on the same FIFO (which keeps what was read): after its server was
    /// restarted.
    public func loadAgain() throws {
        let index = try Pactl.loadModule("module-pipe-sink", Self.moduleArguments(fifoPath, sinkName, format, rate, channels), server: server)
        module.withLock { $0 = index }
    }

    /// The sink as a `pulseaudio -L` argument: for a daemon restarted with the sink already in it, so
    /// that a player reconnecting at once finds its device (a `loadAgain` after the start raced the
    /// player's reconnect, which then said "no sink named …"). Then call ``adoptReloadedModule()``.
    public var moduleLoadLine: String {
        (["module-pipe-sink"] + Self.moduleArguments(fifoPath, sinkName, format, rate, channels)).joined(separator: " ")
    }

    /// Takes the index of the sink's module in a daemon started with ``moduleLoadLine``.
    public func adoptReloadedModule() throws {
        let modules = try Pactl.run((server.map { ["--server=\($0)"] } ?? []) + ["list", "short", "modules"])
        let mine = modules.split(separator: "\n").first { line in
            line.split(separator: "\t").dropFirst(2).first?.split(separator: " ").contains("sink_name=\(sinkName)") == true
        }
        guard let index = mine?.split(separator: "\t").first.flatMap({ Int($0) }) else {
            throw HarnessError("\(sinkName) is not among the modules: \(modules)")
        }
        module.withLock { $0 = index }
    }

    public var bytesPerFrame: Int { format.bytesPerSample * channels }

    /// Unloads the sink, as a device unplugged mid-play, once `frames` audible frames have been read
    /// (on the reader's own thread, however late the test's tasks run): its server moves the stream
    /// on it elsewhere. What had reached the FIFO is kept; ``finish(quietFor:timeout:)`` returns it.
    public func unplug(afterAudible frames: Int) {
        let (index, server) = (moduleIndex, server)
        whenAudible(frames: frames) { Pactl.unloadModuleReliably(index, server: server) }
    }

    /// The bytes read so far.
    public var bytesSoFar: [UInt8] {
        reader.state.withLock { $0.bytes }
    }

    /// Waits until some non-silent audio has arrived (the player is really playing); false on timeout.
    public func waitForAudio(timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if reader.state.withLock({ $0.lastAudible != nil }) {
                return true
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return reader.state.withLock { $0.lastAudible != nil }
    }

    /// Runs `action` once, on the reader's own thread, as soon as `audibleFrames` frames that are not
    /// all zero have been read (at once if they have been already): for a test that must act at a
    /// point of the playback (stop a server, kill a sound server) however late its own tasks are
    /// scheduled. A task awaiting ``waitForAudio(timeout:)`` and then acting was seconds late when
    /// the whole suite ran under a sanitizer, and by then the player had the whole file. `action`
    /// may block (it holds up reading, not the sink: the FIFO holds a second of audio).
    public func whenAudible(frames audibleFrames: Int = 1, _ action: @escaping @Sendable () -> Void) {
        reader.when(audibleFrames: audibleFrames, action)
    }

    /// Keeps reading until nothing but silence has arrived for `quietFor` (counted from this call at
    /// the earliest), or `timeout` passes; then unloads the sink and returns everything read, from
    /// the moment the sink was loaded. Call it after the player has exited.
    public func finish(quietFor: Duration = .milliseconds(500), timeout: Duration = .seconds(10)) async -> [UInt8] {
        let start = ContinuousClock.now
        let deadline = start + timeout
        while ContinuousClock.now < deadline {
            let lastAudible = reader.state.withLock { $0.lastAudible } ?? start
            if ContinuousClock.now - max(lastAudible, start) >= quietFor {
                break
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
        // Unloading runs pactl: keep it off the Swift concurrency threads.
        await BlockingWork.run { self.tearDown() }
        return reader.state.withLock { $0.bytes }
    }

    /// ``finish(quietFor:timeout:)`` decoded as 16-bit samples (for an `.s16le` capture).
    public func finishInt16(quietFor: Duration = .milliseconds(500), timeout: Duration = .seconds(10)) async -> [Int16] {
        precondition(format == .s16le, "PipeSinkCapture.finishInt16: the sink is \(format)")
        return AudioCompare.int16Samples(littleEndian: await finish(quietFor: quietFor, timeout: timeout))
    }

    /// ``finish(quietFor:timeout:)`` decoded as float samples (for a `.float32le` capture).
    public func finishFloat32(quietFor: Duration = .milliseconds(500), timeout: Duration = .seconds(10)) async -> [Float] {
        precondition(format == .float32le, "PipeSinkCapture.finishFloat32: the sink is \(format)")
        return AudioCompare.float32Samples(littleEndian: await finish(quietFor: quietFor, timeout: timeout))
    }

    /// Stops the reader, unloads the module and removes the FIFO; idempotent.
    private func tearDown() {
        guard !tornDown.exchange(true, ordering: .acquiringAndReleasing) else { return }
        reader.stop()
        // A pactl that failed on a loaded machine left the sink loaded (it was once given three quick
        // tries, whose failures a busy server outlasted): asked again until it is gone.
        Pactl.unloadModuleReliably(moduleIndex, server: server)
        directory.remove()
    }
}

/// The FIFO's read end and what has been read from it. Its own object, so that the reader thread
/// does not keep the ``PipeSinkCapture`` alive (whose deinit unloads the module).
private final class FIFOReader: Sendable {
    struct State {
        var bytes: [UInt8] = []
        /// When the last chunk holding a non-zero byte arrived.
        var lastAudible: ContinuousClock.Instant?
        var stopRequested = false
        /// Frames not all zero among the first `countedBytes` read: counted only while a trigger
        /// waits, so a capture nobody asks this of reads as cheaply as before (a reader that falls
        /// behind makes the sink drop audio).
        var audibleFrames = 0
        var countedBytes = 0
        /// Waiting for `audibleFrames` to reach their count (``PipeSinkCapture/whenAudible(frames:_:)``).
        var triggers: [(frames: Int, action: @Sendable () -> Void)] = []
    }

    let state = Locked(State())
    private let fd: Int32
    private let frameBytes: Int
    /// Left by the reader thread once it has stopped reading.
    private let stopped = DispatchGroup()

    init(fd: Int32, name: String, frameBytes: Int) {
        self.fd = fd
        self.frameBytes = frameBytes
        stopped.enter()
        let thread = Thread { [self] in
            readLoop()
        }
        thread.name = name
        thread.start()
    }

    /// Runs `action` on the reader thread once `frames` audible frames are in (now, if they are).
    func when(audibleFrames frames: Int, _ action: @escaping @Sendable () -> Void) {
        let frameBytes = self.frameBytes
        let now = state.withLock { state -> Bool in
            Self.count(&state, frameBytes: frameBytes)
            if state.audibleFrames >= frames { return true }
            state.triggers.append((frames, action))
            return false
        }
        if now { action() }
    }

    /// Asks the thread to stop, waits for it (it polls every 50 ms) and closes the FIFO.
    func stop() {
        state.withLock { $0.stopRequested = true }
        if stopped.wait(timeout: .now() + .seconds(2)) == .success {
            close(fd)
        }
    }

    /// Counts the audible whole frames read since the last count. A capture made before a whole
    /// suite's gate opened holds minutes of silence by the time a trigger is set: counted frame by
    /// frame (a closure a byte, in a debug build) that once held the lock for 20 s, so a "stop after
    /// 2 s" came 20 s late.
    private static func count(_ state: inout State, frameBytes: Int) {
        let whole = (state.bytes.count - state.countedBytes) / frameBytes * frameBytes
        state.bytes.withUnsafeBytes { all in
            state.audibleFrames += AudioCompare.audibleFrames(
                UnsafeRawBufferPointer(rebasing: all[state.countedBytes..<state.countedBytes + whole]), frameBytes: frameBytes)
        }
        state.countedBytes += whole
    }

    private func readLoop() {
        defer { stopped.leave() }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var pollFD = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while !state.withLock({ $0.stopRequested }) {
            if poll(&pollFD, 1, 50) <= 0 {
                continue
            }
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                // Scanned a word at a time and appended with one copy: a closure per byte took debug
                // and ASan builds long enough that the reader fell behind the sink.
                chunk.withUnsafeBytes { chunk in
                    let bytes = UnsafeRawBufferPointer(rebasing: chunk[0..<count])
                    let audible = AudioCompare.containsNonZeroByte(bytes)
                    let now = ContinuousClock.now
                    let frameBytes = self.frameBytes
                    let due = state.withLock { state -> [@Sendable () -> Void] in
                        state.bytes.append(contentsOf: bytes)
                        if audible { state.lastAudible = now }
                        guard !state.triggers.isEmpty else { return [] }
                        Self.count(&state, frameBytes: frameBytes)
                        let ready = state.triggers.filter { $0.frames <= state.audibleFrames }
                        state.triggers.removeAll { $0.frames <= state.audibleFrames }
                        return ready.map(\.action)
                    }
                    for action in due { action() }
                }
            } else if count == 0 {
                // No writer (the module has not opened the FIFO yet, or has closed it): POLLHUP would
                // make poll return at once, so back off instead of spinning.
                usleep(10_000)
            }
        }
    }
}
