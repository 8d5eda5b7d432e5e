#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaBackend
import AliciaLocks
import AliciaSession
import AliciaLibrary
import AliciaHost

/// What the session and the background threads said since the last frame.
extension StudioApp {
    package func collectEvents(_ fresh: [SessionNotice]) {
        let notices = earlyNotices + fresh
        earlyNotices = []
        for notice in notices { take(notice) }
        // `play` ends with what it was asked to play (or what the listener chose since).
        if setup.mode == .play && session.isFinished { running = false }
        // A remote `quit` (the control socket, MPRIS).
        if let quit = session.quitRequested { stop(status: quit) }
        takeInbox()
        let now = MonotonicClock.seconds()
        if let due = reconnect, !due.trying, now >= due.at { tryBackend() }
        if let since = lastProactiveFetch, now - since >= Self.proactiveInterval { refreshProactive() }
        workers.removeAll { worker in
            guard worker.done.isSet else { return false }
            worker.thread.join()
            return true
        }
        if let at = statusSetAt, now - at >= Self.statusSeconds, model.status?.isError == false {
            model.status = nil
            statusSetAt = nil
        }
    }

    private func take(_ notice: SessionNotice) {
        switch notice {
        case .started(_, let item):
            model.nowPlaying = nowPlaying(item)
        case .finished(_, let item, let truncated):
            if let item { model.played.insert(item.label ?? item.title) }
            if !truncated, let label = item?.label { offerNextEpisode(after: label) }
            if truncated {
                setStatus("the file ended before the length its header gave (truncated, or still being written): played what was there", error: true)
                if setup.mode == .play { exitStatus = ExitCode.failure }
            }
        case .failed(_, let item, let error):
            setStatus(item.map { "\($0.title): " }.map { $0 + error.message } ?? error.message, error: true)
            if setup.mode == .play { exitStatus = ExitCode.failure }
        case .voice(.failed(let title, let error)):
            setStatus("voice note \(title): \(error.message)", error: true)
        case .opened(_, let item, let format):
            learnLength(of: item, format)
        case .asleep:
            setStatus("asleep: paused, the position saved (space resumes 5 s back)")
        case .outputMoved(let move):
            setStatus(PlaybackFrontEnd.movedLine(move))
        case .alicia(let said):
            take(said)
        case .queueEnded, .voice:
            break
        }
    }

    /// Alicia's answer to what was typed in the composer, into the chat panel as it grows.
    private func take(_ said: AliciaNotice) {
        switch said {
        case .replying(let prompt, let text):
            model.reply = .init(prompt: prompt, text: text, streaming: true, messageID: nil)
        case .replied(let prompt, let text, let messageID):
            model.reply = .init(prompt: prompt, text: text, streaming: false, messageID: messageID)
        case .failed(let prompt, let text, let message):
            // Her words so far stay on the panel; why she stopped goes on the status line.
            model.reply = .init(prompt: prompt, text: text, streaming: false, messageID: nil)
            setStatus(message, error: true)
        case .problem(let message):
            setStatus(message, error: true)
        case .voiceNote:
            break
        }
    }

    private func takeInbox() {
        let box = inbox.take()
        if let proactive = box.proactive { model.proactive = proactive }
        if let (text, response) = box.answered {
            model.reply = .init(prompt: text, text: response ?? "", streaming: false, messageID: nil)
        }
        if let error = box.error { setStatus(error, error: true) }
        if let notes = box.notes, model.notes?.label == notes.label {
            model.notes?.text = notes.text.map(MarkdownText.plain)
            model.notes?.error = notes.error
        }
        if let answered = box.backendAnswered { reconnected(answered) }
        if let shelf = box.readings {
            readingShelf = shelf
            model.briefingReady = shelf.briefing.flatMap { $0.isPlayable ? ($0.title ?? "Morning briefing") : nil }
            loadLibrary()
        }
        if let items = box.readingItems, let first = items.first {
            session.perform(.load(LoadPlan(items)))
            model.nowPlaying = nowPlaying(first)
            model.status = nil
        }
        if !box.voiced.isEmpty { queueVoiced(box.voiced) }
    }
}
