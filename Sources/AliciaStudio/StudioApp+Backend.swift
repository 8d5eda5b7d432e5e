#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaBackend
import AliciaLocks
import AliciaSession
import AliciaLibrary
import AliciaHost
import AliciaTerminal

/// The backend's answers that come on threads of their own: the offline reconnect, the proactive
/// messages (and the show notes, StudioApp+Library).
extension StudioApp {
    /// Offline: asks the backend for the library on a thread of its own (the loop goes on); the
    /// answer comes back through the inbox as `backendAnswered`.
    package func tryBackend() {
        guard let backend = setup.backend, reconnect != nil else { return }
        reconnect?.trying = true
        let inbox = self.inbox
        onBackendThread("alicia-reconnect", configuration: backend.client.configuration) { client throws(BackendError) in
            _ = try client.tracks()
            inbox.withLock { $0.backendAnswered = true }
        } failed: { error in
            // A refusal (401, a bad reply) is an answer too: the reload says what it is.
            inbox.withLock { $0.backendAnswered = !error.isUnreachable }
        }
    }

    /// The backend answered (reload the library, keeping the selection and what plays) or did not
    /// (ask again after twice the wait, at most `reconnectLongest`).
    package func reconnected(_ answered: Bool) {
        guard let due = reconnect, let backend = setup.backend else { return }
        guard answered else {
            let wait = min(due.wait * 2, Self.reconnectLongest)
            reconnect = (MonotonicClock.seconds() + wait, wait, false)
            return
        }
        let selected = model.selectedEntry.map { ($0.episode.label, $0.episode.title) }
        backend.forgetLibrary()
        reconnect = nil
        loadLibrary()
        if let selected, let index = model.visibleEntries.firstIndex(where: { $0.episode.label == selected.0 && $0.episode.title == selected.1 }) {
            model.selection = index
        }
        if model.nowPlaying != nil, let item = view.snapshot().item { model.nowPlaying = nowPlaying(item) }
        if model.offline == nil { setStatus("the backend is back: the library is up to date") }
    }

    package func refreshProactive() {
        lastProactiveFetch = MonotonicClock.seconds()
        // Offline, the header's mark says it once: no request, and no error line each minute.
        guard let backend = setup.backend, reconnect == nil else { return }
        let inbox = self.inbox
        onBackendThread("alicia-proactive", configuration: backend.client.configuration) { client throws(BackendError) in
            let messages = try client.proactive(limit: 5)
            inbox.withLock { $0.proactive = messages }
        } failed: { error in
            // Unreachable: the reconnect finds out and the header shows it, not the status line.
            if !error.isUnreachable { inbox.withLock { $0.error = "proactive messages: \(error.message)" } }
        }
    }

    /// `r`: the composer opens for an answer to her latest message that asks something.
    package func answer() {
        guard setup.backend != nil else { return setStatus("no backend: answering Alicia needs one (see --help)", error: true) }
        guard let asking = model.proactive.first(where: \.isAsk) else { return setStatus("Alicia has not asked you anything") }
        model.answering = asking
        model.composer = LineEditor()
    }

    /// Sends the answer (`/api/reply`) on a thread of its own; what she says back comes to the chat
    /// panel through the inbox.
    package func sendAnswer(_ text: String, to message: ProactiveMessage) {
        guard let backend = setup.backend else { return }
        let inbox = self.inbox
        onBackendThread("alicia-reply", configuration: backend.client.configuration) { client throws(BackendError) in
            let response = try client.reply(to: message.id, text: text)
            inbox.withLock { $0.answered = (text, response) }
        } failed: { error in
            inbox.withLock { $0.answered = (text, nil); $0.error = "answer: \(error.message)" }
        }
    }

    /// Runs `errand` on a thread of its own (the loop goes on) with a client of the backend's
    /// configuration that gives up once the Studio quits; what it learns, or the error it met
    /// (`failed`), goes back through the inbox. The thread is joined once done, or at exit.
    package func onBackendThread(_ name: String, configuration: BackendConfiguration,
                                 _ errand: @escaping @Sendable (BackendClient) throws(BackendError) -> Void,
                                 failed: @escaping @Sendable (BackendError) -> Void) {
        let quitting = self.quitting
        let done = Flag()
        let thread = NativeThread(name: name) {
            defer { done.set() }
            do throws(BackendError) {
                let client = try BackendClient(configuration: configuration)
                client.cancel { quitting.isSet }
                try errand(client)
            } catch {
                failed(error)
            }
        }
        workers.append(Worker(thread: thread, done: done))
    }
}
