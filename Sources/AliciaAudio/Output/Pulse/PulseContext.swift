internal import CPulse
import AliciaLocks

/// The process's one PulseAudio connection: a `pa_threaded_mainloop` and its
/// `pa_context`. Every libpulse call from our threads runs under the mainloop
/// lock (`withLock`); callbacks run on the mainloop's thread with the lock held,
/// and only record state and `signal`.
final class PulseContext: @unchecked Sendable {
    // @unchecked: the pointers are touched only under the mainloop lock, and
    // libpulse's lock functions themselves are thread-safe.
    let mainloop: OpaquePointer
    let context: OpaquePointer

    private static let current = Locked<PulseContext?>(nil)

    /// The shared connection, made on first use (and made again if the server went away), once the
    /// server has answered.
    static func shared() throws(PlaybackError) -> PulseContext {
        try current.withLock { (current: inout PulseContext?) throws(PlaybackError) -> PulseContext in
            if let existing = current, existing.isGood {
                try existing.waitUntilReady()
                return existing
            }
            let made = try PulseContext()
            current = made
            try made.waitUntilReady()
            return made
        }
    }

    /// Starts connecting, if no connection is there or on its way, without waiting for the server:
    /// a player about to open an item calls this first, so that the handshake runs while the item's
    /// first bytes come, and the mainloop's thread is made before a fetch thread loads libcurl (a
    /// thread made while the loader's lock is held waits for it). A failure shows at `shared()`.
    static func connectAhead() {
        current.withLock { current in
            if let existing = current, existing.isGood { return }
            current = try? PulseContext()
        }
    }

    private init() throws(PlaybackError) {
        guard let mainloop = pa_threaded_mainloop_new() else {
            throw .audioOutput(reason: "cannot create a mainloop")
        }
        let props = pa_proplist_new()
        pa_proplist_sets(props, PA_PROP_APPLICATION_NAME, "Alicia")
        pa_proplist_sets(props, PA_PROP_APPLICATION_ID, "org.alicia.player")
        pa_proplist_sets(props, PA_PROP_APPLICATION_ICON_NAME, "audio-x-generic")
        guard let context = pa_context_new_with_proplist(pa_threaded_mainloop_get_api(mainloop), "Alicia", props) else {
            pa_proplist_free(props)
            pa_threaded_mainloop_free(mainloop)
            throw .audioOutput(reason: "cannot create a context")
        }
        pa_proplist_free(props)
        self.mainloop = mainloop
        self.context = context
        pa_context_set_state_callback(context, { _, user in
            pa_threaded_mainloop_signal(OpaquePointer(user), 0)
        }, UnsafeMutableRawPointer(mainloop))
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        guard pa_threaded_mainloop_start(mainloop) >= 0 else {
            throw .audioOutput(reason: "cannot start the mainloop thread")
        }
        if pa_context_connect(context, nil, PA_CONTEXT_NOAUTOSPAWN, nil) < 0 {
            throw .noAudioServer(reason: String(cString: pa_strerror(pa_context_errno(context))))
        }
    }

    /// Waits until the server has answered the handshake; the reason when it did not.
    private func waitUntilReady() throws(PlaybackError) {
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        while true {
            let state = pa_context_get_state(context)
            if state == PA_CONTEXT_READY { return }
            if PA_CONTEXT_IS_GOOD(state) == 0 {
                throw .noAudioServer(reason: String(cString: pa_strerror(pa_context_errno(context))))
            }
            pa_threaded_mainloop_wait(mainloop)
        }
    }

    /// Made again after the server went away, the old one is freed: under the mainloop lock its
    /// callback is cleared and the context disconnected, then the mainloop thread is stopped
    /// (unlocked, as libpulse requires) before anything is freed.
    deinit {
        pa_threaded_mainloop_lock(mainloop)
        pa_context_set_state_callback(context, nil, nil)
        pa_context_disconnect(context)
        pa_threaded_mainloop_unlock(mainloop)
        pa_threaded_mainloop_stop(mainloop)
        pa_context_unref(context)
        pa_threaded_mainloop_free(mainloop)
    }

    private var isGood: Bool {
        withLock { PA_CONTEXT_IS_GOOD(pa_context_get_state(context)) != 0 }
    }

    /// The context's last error, in libpulse's words.
    var lastError: String {
        String(cString: pa_strerror(pa_context_errno(context)))
    }

    func withLock<R>(_ body: () throws -> R) rethrows -> R {
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        return try body()
    }

    /// Releases the lock until a callback signals. Call with the lock held.
    func wait() { pa_threaded_mainloop_wait(mainloop) }

    /// Wakes every `wait`. Call with the lock held.
    func signal() { pa_threaded_mainloop_signal(mainloop, 0) }

    /// Waits (lock held) until `operation` completes or `stop` says to give up,
    /// then releases it. Returns whether it completed.
    @discardableResult
    func finish(_ operation: OpaquePointer?, unless stop: () -> Bool = { false }) -> Bool {
        guard let operation else { return false }
        defer { pa_operation_unref(operation) }
        while pa_operation_get_state(operation) == PA_OPERATION_RUNNING {
            if stop() {
                pa_operation_cancel(operation)
                return false
            }
            wait()
        }
        return pa_operation_get_state(operation) == PA_OPERATION_DONE
    }

    /// Whether the server has a sink named `name`: asked before a stream is connected to it, since
    /// pipewire-pulse accepts any name and plays on the default sink instead. Call with the lock held.
    func hasSink(named name: String) -> Bool {
        final class Answer { var found = false; var mainloop: OpaquePointer?; init(_ m: OpaquePointer?) { mainloop = m } }
        let answer = Answer(mainloop)
        let user = Unmanaged.passUnretained(answer).toOpaque()
        let asked = pa_context_get_sink_info_by_name(context, name, { _, info, _, user in
            let answer = Unmanaged<Answer>.fromOpaque(user!).takeUnretainedValue()
            if info != nil { answer.found = true }
            pa_threaded_mainloop_signal(answer.mainloop, 0)
        }, user)
        finish(asked)
        return answer.found
    }

    /// A success callback that wakes waiters; its user data is the mainloop.
    static let signalOnCompletion: pa_stream_success_cb_t = { _, _, user in
        pa_threaded_mainloop_signal(OpaquePointer(user), 0)
    }

    var completionUserData: UnsafeMutableRawPointer { UnsafeMutableRawPointer(mainloop) }

    /// Wakes every `wait` at `usec` on libpulse's monotonic clock (`pa_rtclock_now`): a deadline
    /// for a wait whose answer may come late. Free it with `cancelWake` (lock held).
    /// Wraps `pa_context_rttime_new`.
    func wake(at usec: pa_usec_t) -> OpaquePointer? {
        pa_context_rttime_new(context, usec, { _, _, _, user in
            pa_threaded_mainloop_signal(OpaquePointer(user), 0)
        }, completionUserData)
    }

    /// Frees a `wake` (fired or not). Call with the lock held.
    func cancelWake(_ event: OpaquePointer) {
        pa_threaded_mainloop_get_api(mainloop).pointee.time_free(event)
    }
}
