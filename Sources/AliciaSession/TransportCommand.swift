import AliciaAudio

/// Everything a listener can ask of a listening session: the one vocabulary of every front end.
/// Keys (the Studio), script lines, the control socket's commands and properties, MPRIS calls and
/// `ctl` are parsers into it, and `ListeningSession.perform(_:)` is the only place that carries it
/// out, so no front end decides on its own how a seek, a volume or a "previous" behaves (as mpv's
/// `mp_cmds[]` serves input.conf, Lua, libmpv and IPC alike).
public enum TransportCommand: Sendable, Equatable {
    // MARK: The queue

    /// Puts items in the queue and starts them as the plan says (`replace` plays its first).
    case load(LoadPlan)
    /// Plays the entry at this index of the queue, from where it was left.
    case playIndex(Int)
    case next
    /// The entry before, where it was left, within the first seconds of an entry; later the start
    /// of this one (as podcast apps do).
    case previous
    case remove(QueueTarget)
    /// mpv's `playlist-move`: the entry at `from` takes the place of the one at `to`.
    case move(from: Int, to: Int)
    /// Every entry but the one playing goes (mpv's `playlist-clear`).
    case clear
    /// The entries after the one playing, in a new random order.
    case shuffle
    case loop(LoopChange)

    // MARK: Transport

    case pause, resume, togglePause
    /// What Space does everywhere: a voice note playing is skipped; else as `togglePause`.
    case toggleOrSkipNote
    case seek(SeekTarget)
    /// To a chapter of the item heard (its start, in the item's own time).
    case chapter(ChapterChange)
    /// The listener's volume, in percent of the mixer's scale (`VolumeScale`), for the episode and
    /// the voice notes alike.
    case volume(Change)
    case mute(Switch)
    case speed(Change)
    case skipSilence(LevelChange)
    case loudness(LoudnessMatching)
    case sleep(SleepChange)
    /// Stops playback and empties the queue (mpv's `stop`); the heard item's position is kept.
    case stop
    /// Asks the front end to end with this exit status; `savePosition` first (mpv's `quit-watch-later`).
    case quit(status: Int32, savePosition: Bool)

    // MARK: Voice notes and Alicia

    /// Plays a voice note on the voice-note player, over the episode (its focus policy).
    case voiceNote(QueueItem)
    /// Plays the last voice note again.
    case replayVoiceNote
    /// Ends the voice note playing now (the next one, if any, follows).
    case skipVoiceNote
    /// Sends `text` to Alicia; her reply is a notice, and her voice note (when `voice`) plays.
    case say(String, voice: Bool)

    // MARK: Not the listener's

    /// Plays a queued entry from another location from now on (its download finished).
    case relocate(QueueEntryID, MediaLocation)

    /// How `load` places items.
    public enum LoadMode: String, Sendable, Equatable, CaseIterable {
        /// Replaces the queue and plays the first.
        case replace
        /// At the end; `appendPlay` also plays it when nothing plays.
        case append, appendPlay = "append-play"
        /// Right after the entry playing; `insertNextPlay` also plays it when nothing plays.
        case insertNext = "insert-next", insertNextPlay = "insert-next-play"
    }

    public enum QueueTarget: Sendable, Equatable {
        case current
        case index(Int)
        case entry(QueueEntryID)
    }

    public enum SeekTarget: Sendable, Equatable {
        /// Seconds from where playback stands (presses that arrive together add up).
        case by(Double)
        /// Seconds from the start; negative: from the end.
        case to(Double)
        /// A share (0…1) of the length.
        case toFraction(Double)
        /// A share of the length, from where playback stands.
        case byFraction(Double)
    }

    public enum ChapterChange: Sendable, Equatable {
        /// The chapter at this index (0-based, as mpv's `chapter`).
        case to(Int)
        /// This many chapters on (or back: within 3 s of a chapter's start, -1 is the one before;
        /// later, this one's start again).
        case by(Int)
    }

    public enum Change: Sendable, Equatable {
        case set(Double)
        case by(Double)
    }

    public enum Switch: Sendable, Equatable {
        case on, off, toggle
    }

    public enum LoopChange: Sendable, Equatable {
        case set(LoopMode)
        /// off → queue → entry → off.
        case cycle
    }

    public enum LevelChange: Sendable, Equatable {
        case set(SilenceSkipping)
        /// off → mild → medium → strong → off.
        case cycle
    }

    public enum SleepChange: Sendable, Equatable {
        case set(SleepTimer)
        /// The next timer of the fixed cycle: off → 15 → 30 → 45 → 60 min → end of the item → off.
        case cycle
    }
}

/// What came of a command, for the front end that sent it.
public enum TransportReply: Sendable, Equatable {
    case done
    /// The first entry a `load` put in the queue.
    case entry(QueueEntryID)
    /// Alicia's reply to `say`.
    case text(String)
    /// Nothing was done, and why, in one line.
    case refused(String)
    /// Nothing was done: what it named is not there (an index past the queue), in one line.
    case invalid(String)

    public var isRefused: Bool {
        switch self {
        case .refused, .invalid: return true
        default: return false
        }
    }
}
