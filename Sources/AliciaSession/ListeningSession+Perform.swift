#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaLocks

/// The one place where the vocabulary is carried out. Every front end (keys, scripts, the socket,
/// MPRIS, `ctl` through the socket) ends here, on the session's thread.
extension ListeningSession {
    /// Carries out `command`; `reply` is called once, at once for every command but `say` (whose
    /// reply comes when Alicia has answered).
    public func perform(_ command: TransportCommand, reply: @escaping @Sendable (TransportReply) -> Void) {
        if case .say(let text, let voice) = command {
            say(text, voice: voice, reply: reply)
            return
        }
        reply(perform(command))
    }

    /// Carries out `command` and says what came of it (`say`: `.done` once the message is on its way;
    /// the reply comes as notices).
    @discardableResult
    public func perform(_ command: TransportCommand) -> TransportReply {
        // Observers (the socket's, MPRIS) read again what a command may have changed: pushed from
        // this event, as the players' own changes are from theirs.
        defer { player.announceChange() }
        switch command {
        case .load(let plan): return load(plan)
        case .playIndex(let index): return playIndex(index)
        case .next: return player.next() ? .done : .refused("this is the last in the queue")
        case .previous: return previous()
        case .remove(let target): return remove(target)
        case .move(let from, let to): return move(from: from, to: to)
        case .clear: return clearAllButCurrent()
        case .shuffle: return shuffleRest()
        case .loop(let change): return loop(change)
        case .pause:
            player.pause()
            return .done
        case .resume: return resume()
        case .togglePause: return togglePause()
        case .toggleOrSkipNote, .replayVoiceNote, .skipVoiceNote: return voiceNoteControl(command)
        case .seek(let target): return seek(target)
        case .chapter(let change): return chapter(change)
        case .volume(let change): return volume(change)
        case .mute(let change):
            levels.withLock { $0.muted = change == .toggle ? !$0.muted : change == .on }
            applyVolume()
            return .done
        case .speed(let change): return speed(change)
        case .skipSilence(let change):
            player.setSilenceSkipping(change == .cycle ? player.silenceSkipping.next : Self.level(change))
            return .done
        case .loudness(let matching):
            player.setLoudness(matching)
            voiceNotes?.player.setLoudness(matching)
            return .done
        case .sleep(let change): return sleep(change)
        case .stop:
            stopPlayback()
            return .done
        case .quit(let status, let save):
            if save { savePosition() }
            quitRequested = quitRequested ?? status
            return .done
        case .voiceNote(let note): return playVoiceNote(note)
        case .say(let text, let voice):
            guard chat != nil else { return .refused(Self.noChat) }
            say(text, voice: voice) { _ in }
            return .done
        case .relocate(let entry, let location):
            return player.relocate(entry, to: location) ? .done : .refused("that entry plays from where it is")
        }
    }

    /// The voice-note player's own verbs: skip the note playing (else toggle the episode's pause,
    /// for the key that does both), play the last note again, skip it.
    private func voiceNoteControl(_ command: TransportCommand) -> TransportReply {
        let playing = voiceNotes.map { $0.nowPlaying.title != nil } ?? false
        switch command {
        case .replayVoiceNote:
            guard let note = levels.withLock({ $0.lastVoiceNote }) else { return .refused("no voice note yet") }
            return playVoiceNote(note)
        case .toggleOrSkipNote where !playing: return togglePause()
        case .skipVoiceNote where !playing: return .refused("no voice note is playing")
        default:
            voiceNotes?.skip()
            return .done
        }
    }

    private static func level(_ change: TransportCommand.LevelChange) -> SilenceSkipping {
        if case .set(let level) = change { return level }
        return .off
    }

    /// The players' gain from the listener's levels: one volume for both; muted, none.
    func applyVolume() {
        let (percent, muted) = levels.withLock { ($0.volumePercent, $0.muted) }
        let linear = muted ? 0 : VolumeScale.linear(percent: percent)
        player.setVolume(linear)
        voiceNotes?.player.setVolume(linear)
    }

    // MARK: The queue

    private func load(_ plan: LoadPlan) -> TransportReply {
        let items = plan.items
        guard !items.isEmpty else { return .refused("nothing to play: the list is empty") }
        var ids: [QueueEntryID] = []
        switch plan.mode {
        case .replace:
            guard items.indices.contains(plan.index) else { return .invalid("no entry \(plan.index) in what is loaded") }
            play(plan)
            ids = player.queue.entries.map(\.id)
        case .append, .appendPlay:
            let start = plan.mode == .appendPlay
            if start { queueEnded = false }
            for item in items { ids.append(player.add(resumed(item), .end, startIfIdle: start)) }
        case .insertNext, .insertNextPlay:
            let start = plan.mode == .insertNextPlay
            if start { queueEnded = false }
            for item in items.reversed() { ids.insert(player.add(resumed(item), .next, startIfIdle: start), at: 0) }
        }
        return ids.first.map { .entry($0) } ?? .done
    }

    /// Plays the entry at `index` from where it was left, playing (mpv's `playlist-play-index`).
    private func playIndex(_ index: Int) -> TransportReply {
        let queue = player.queue
        guard queue.entries.indices.contains(index) else { return .invalid("no entry \(index) in the queue") }
        jump(to: queue.entries[index])
        player.resume()
        return .done
    }

    /// Goes to `entry` where it was left (the heard item's position saved first, so nothing of it is
    /// lost), paused or playing as the player is.
    private func jump(to entry: QueueEntry) {
        savePosition()
        queueEnded = false
        player.jump(to: entry.id, from: resumed(entry.item).start)
    }

    private func previous() -> TransportReply {
        if player.snapshot().position > Self.restartThreshold {
            player.seek(to: 0)
            return .done
        }
        let queue = player.queue
        guard let from = player.commandTarget ?? queue.currentID, let before = queue.skipTarget(before: from) else {
            return .refused("this is the first in the queue")
        }
        jump(to: before)
        return .done
    }

    private func entryID(_ target: TransportCommand.QueueTarget) -> QueueEntryID? {
        let queue = player.queue
        switch target {
        case .current: return queue.currentID ?? player.snapshot().entry
        case .index(let index): return queue.entries.indices.contains(index) ? queue.entries[index].id : nil
        case .entry(let id): return queue.entry(id) != nil ? id : nil
        }
    }

    private func remove(_ target: TransportCommand.QueueTarget) -> TransportReply {
        guard let id = entryID(target), player.remove(id) else { return .invalid("no such entry in the queue") }
        return .done
    }

    private func move(from: Int, to: Int) -> TransportReply {
        let queue = player.queue
        guard queue.entries.indices.contains(from), (0...queue.count).contains(to) else {
            return .invalid("no such entry in the queue")
        }
        // mpv's meaning: the entry takes the place of the one at `to` (so moving down lands before it).
        player.move(queue.entries[from].id, to: from < to ? to - 1 : to)
        return .done
    }

    private func clearAllButCurrent() -> TransportReply {
        let queue = player.queue
        let keep = queue.currentID ?? player.snapshot().entry
        for entry in queue.entries where entry.id != keep { player.remove(entry.id) }
        return .done
    }

    private func shuffleRest() -> TransportReply {
        let current = player.snapshot().entry
        var rest = player.queue.entries.filter { $0.id != current }
        var generator = SystemRandomNumberGenerator()
        rest.shuffle(using: &generator)
        for (offset, entry) in rest.enumerated() { player.move(entry.id, to: (current == nil ? 0 : 1) + offset) }
        levels.withLock { $0.shuffled = true }
        return .done
    }

    private func loop(_ change: TransportCommand.LoopChange) -> TransportReply {
        switch change {
        case .set(let mode): player.setLoop(mode)
        case .cycle:
            switch player.queue.loop {
            case .off: player.setLoop(.queue)
            case .queue: player.setLoop(.entry)
            case .entry: player.setLoop(.off)
            }
        }
        return .done
    }

    // MARK: Transport

    /// Plays on after a pause; after the end, the last item again from its start. The step back a
    /// resume takes (after a long pause, AntennaPod's steps; after the sleep timer, 5 s) is asked
    /// for while the output is still corked, so it is counted from the exact frame where playback
    /// stopped, not from a position read while the device has just started again.
    private func resume() -> TransportReply {
        let snapshot = player.snapshot()
        if snapshot.state == .ended || snapshot.state == .idle, let entry = snapshot.entry {
            queueEnded = false
            player.resume()
            player.jump(to: entry, from: .seconds(0))
            return .done
        }
        stepBackAfterPause()
        player.resume()
        return .done
    }

    /// Space: pause or play; after the end, the last item again from its start.
    private func togglePause() -> TransportReply {
        switch player.snapshot().state {
        case .ended, .idle, .paused: return resume()
        default:
            player.pause()
            return .done
        }
    }

    private func seek(_ target: TransportCommand.SeekTarget) -> TransportReply {
        let snapshot = player.snapshot()
        // An entry being opened counts: a seek right after a play is about it (and adds up).
        guard let asked = player.commandTarget, snapshot.state != .idle || !player.queue.isEmpty else {
            return .refused("nothing is playing")
        }
        // The entry asked about, opened or still loading: standard input cannot seek either way.
        if (snapshot.item ?? player.queue.entry(asked)?.item)?.isOnceThrough == true {
            return .refused("standard input plays once through: it cannot seek")
        }
        if snapshot.entry == asked, snapshot.format?.isLive == true {
            return .refused("a live stream cannot seek: it plays as it is sent")
        }
        switch target {
        case .by(let seconds): player.seek(by: seconds)
        case .to(let seconds) where seconds < 0:
            guard let duration = snapshot.duration else { return .refused("the length is not known yet") }
            player.seek(to: max(0, duration + seconds))
        case .to(let seconds): player.seek(to: seconds)
        case .toFraction(let fraction): player.seek(toFraction: fraction)
        case .byFraction(let fraction):
            guard let duration = snapshot.duration else { return .refused("the length is not known yet") }
            player.seek(by: duration * fraction)
        }
        return .done
    }

    /// Seeks to a chapter's start. A step counts from the seek still pending, if any, so presses
    /// that arrive together add up.
    private func chapter(_ change: TransportCommand.ChapterChange) -> TransportReply {
        let snapshot = player.snapshot()
        guard snapshot.state != .idle, let details = ItemDetails(snapshot), player.commandTarget == snapshot.entry else {
            return .refused("nothing is playing")
        }
        let chapters = details.chapters
        guard !chapters.isEmpty else { return .refused("this item has no chapters") }
        switch change {
        case .to(let index):
            guard chapters.indices.contains(index) else { return .invalid("no chapter \(index): this item has \(chapters.count), from 0") }
            player.seek(to: chapters[index].start)
        case .by(let steps):
            let origin = player.seekOrigin ?? snapshot.position
            guard let target = ChapterMap.step(steps, from: origin, in: chapters, restart: Self.restartThreshold) else {
                return .refused("this is the last chapter")
            }
            player.seek(to: target < 0 ? 0 : chapters[target].start)
        }
        return .done
    }

    /// `by` a multiple of the step lands on a multiple of it (from 83 %, +5 is 85 %), as the keys do.
    private func volume(_ change: TransportCommand.Change) -> TransportReply {
        levels.withLock { levels in
            let now = levels.volumePercent
            var percent: Double
            switch change {
            case .set(let value): percent = value
            case .by(let delta):
                let steps = delta / VolumeScale.step
                percent = steps == steps.rounded() ? VolumeScale.stepped(now, by: Int(steps)) : now + delta
            }
            percent = min(max(percent, VolumeScale.percentRange.lowerBound), VolumeScale.percentRange.upperBound)
            levels.volumePercent = percent
        }
        applyVolume()
        return .done
    }

    /// `by` a multiple of a quarter lands on a quarter, whatever the speed was set to before.
    private func speed(_ change: TransportCommand.Change) -> TransportReply {
        switch change {
        case .set(let speed):
            guard speed > 0 else { return .invalid("a speed is from 0.5 to 3") }
            player.setSpeed(speed)
        case .by(let delta):
            let speed = player.snapshot().speed + delta
            let quarters = delta * 4
            player.setSpeed(quarters == quarters.rounded() ? (speed * 4).rounded() / 4 : speed)
        }
        return .done
    }

    /// `.cycle` steps through `SleepTimer.cycle` from the preset last chosen, whatever time is left,
    /// so that pressing `z` twice always goes 15 → 30 and never stays put.
    private func sleep(_ change: TransportCommand.SleepChange) -> TransportReply {
        switch change {
        case .set(let timer):
            player.setSleepTimer(timer)
            levels.withLock { $0.sleepPreset = SleepTimer.cycle.firstIndex(of: timer) ?? 0 }
        case .cycle:
            let current = player.sleepTimer
            let preset = levels.withLock { levels -> Int in
                // A timer that ended or was set off elsewhere starts the cycle again.
                let next = current == .off ? 1 : (levels.sleepPreset + 1) % SleepTimer.cycle.count
                levels.sleepPreset = next
                return next
            }
            player.setSleepTimer(SleepTimer.cycle[preset])
        }
        return .done
    }

    /// Stops playback and empties the queue (mpv's `stop`): the heard item's position is saved
    /// first; nothing plays until something is loaded again.
    public func stopPlayback() {
        savePosition()
        voiceNotes?.clear()
        player.stop()
        player.clear()
        queueEnded = true
    }

    // MARK: Voice notes and Alicia

    private func playVoiceNote(_ note: QueueItem) -> TransportReply {
        guard let voiceNotes else { return .refused("this player has no voice-note player") }
        voiceNotes.enqueue(note.location, title: note.title)
        levels.withLock { $0.lastVoiceNote = note }
        return .done
    }

    /// The one title every front end gives Alicia's voice reply.
    public static func voiceNoteItem(_ location: MediaLocation) -> QueueItem {
        QueueItem(location: location, title: "Alicia's reply", reference: "voice:" + location.display)
    }

    static let noChat = "say needs Alicia's backend, and none is configured"

    /// Sends `text` to Alicia on a thread of its own; what comes back is carried to this thread by
    /// the mailbox (`take(said:)`), her voice note queued as it is announced.
    func say(_ text: String, voice: Bool, reply: @escaping @Sendable (TransportReply) -> Void) {
        guard let chat else {
            reply(.refused(Self.noChat))
            return
        }
        let id = nextChat
        nextChat += 1
        let mailbox = remote
        let closing = self.closing
        let thread = NativeThread(name: "alicia-chat") {
            chat.send(text, voice, { closing.withLock { $0.closed } }) { event in mailbox.deliver(.said(id, event)) }
        }
        chats[id] = (thread, text, "", reply)
    }

    /// Carries out what other threads left (commands, chat events) and says what came of it.
    func takeMail() -> [SessionNotice] {
        var notices: [SessionNotice] = []
        while true {
            let letters = remote.take()
            if letters.isEmpty { return notices }
            for letter in letters {
                switch letter {
                case .command(let command, let reply): perform(command, reply: reply)
                case .said(let id, let event): notices += take(said: event, of: id)
                }
            }
        }
    }

    private func take(said event: SayEvent, of id: Int) -> [SessionNotice] {
        guard let chat = chats[id] else { return [] }
        switch event {
        case .token(let piece):
            chats[id]?.text += piece
            return [.alicia(.replying(prompt: chat.prompt, text: chat.text + piece))]
        case .voice(let location):
            let note = Self.voiceNoteItem(location)
            _ = playVoiceNote(note)
            return [.alicia(.voiceNote(note))]
        case .problem(let message):
            return [.alicia(.problem(message))]
        case .replied(let text, let messageID):
            finishChat(id)
            chat.reply(.text(text))
            return [.alicia(.replied(prompt: chat.prompt, text: text, messageID: messageID))]
        case .failed(let message):
            finishChat(id)
            chat.reply(.refused(message))
            return [.alicia(.failed(prompt: chat.prompt, text: chat.text, message: message))]
        }
    }

    private func finishChat(_ id: Int) {
        chats.removeValue(forKey: id)?.thread.join()
    }

    /// A chat is waiting for Alicia's answer.
    public var isChatting: Bool { !chats.isEmpty }
}
