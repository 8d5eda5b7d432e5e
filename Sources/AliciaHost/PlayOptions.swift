import AliciaAudio
import AliciaLibrary
import AliciaLocks
import AliciaSession

/// Options of `alicia-player play` (and of `demo`, which has no reference).
public struct PlayOptions: Equatable, Sendable {
    /// What to play, in order (`play A B C` is a queue of three).
    public var references: [String]
    /// The first reference (the only one of `voice`).
    public var reference: String { references.first ?? "" }
    /// `--loop`: the queue starts again after its last item.
    public var loop = false
    /// `--shuffle`: the queue is shuffled once before it plays.
    public var shuffle = false
    /// `--from-start`: every episode from its beginning, not where it was left.
    public var fromStart = false
    /// `queue`: every reference is a list file (M3U, M3U8 or one reference a line; `-` for stdin).
    public var referencesAreLists = false
    /// `--keep-going`: a line of a list that cannot be played is skipped with a warning.
    public var keepGoing = false
    /// `--save FILE`: write the resolved queue as M3U8 instead of playing it.
    public var saveQueue: String?
    public var start: StartPosition?
    /// As typed, for messages.
    public var startText: String?
    public var device: String?
    public var readAheadSeconds: Double = 10
    /// Playback speed (1 = as recorded; the pitch stays); nil when not given (the Studio then takes
    /// the speed it remembers, everything else 1).
    public var speedGiven: Double?
    public var speed: Double { speedGiven ?? 1 }
    /// `--volume`: percent as mixers show it, 0–150; nil when not given (the Studio then takes the
    /// volume it remembers, everything else 100).
    public var volume: Double?
    public var backend = BackendOptions()
    /// Voice notes at positions of the episode.
    public var voiceAt: [VoiceTrigger] = []
    public var voiceFocus: VoiceFocus = .pause
    /// Seconds to step back when an episode resumes after a voice note.
    public var noteRewind: Double = 0
    /// No status lines when not on a terminal.
    public var quiet = false
    /// `--ipc PATH`: the control socket's path (nil: the default one).
    public var ipcPath: String?
    /// `--ipc-name NAME`: the socket NAME beside the default one.
    public var ipcName: String?
    /// `--no-ipc`: no control socket.
    public var noIPC = false
    /// `--give-up-after`, `--stall-timeout`, `--cacert`.
    public var network = NetworkPolicy()
    /// `--skip-silence[=LEVEL]`: how pauses are shortened.
    public var skipSilence: SilenceSkipping = .off
    /// `--sleep 30m|end|chapter|N`.
    public var sleep: SleepTimer = .off
    /// `--loudness off|TARGET`; nil when not given (then `ALICIA_LOUDNESS`, else −16 LUFS).
    public var loudness: LoudnessMatching?
    /// `--auto-download N`: the next N queue entries download into the cache while it plays; nil
    /// when not given (then `auto_download` in the config file, else none).
    public var autoDownload: Int?
    /// `--accessible` (or `ACCESSIBLE=1`, or `accessible = true` in the config file): the Studio as
    /// linear text, words instead of glyphs.
    public var accessible = false
    /// `--progress-every T`: in the accessible Studio, a status line each T of the item (nil: none).
    public var progressEvery: Double?
    /// `--no-report`: no listening reports to Alicia's backend (as `report = off` in the config file).
    public var noReport = false
    /// `--no-sync`: no sync with the gpodder.net-API server `alicia-player sync setup` named.
    public var noSync = false

    public init(reference: String) {
        references = reference.isEmpty ? [] : [reference]
    }

    public init(references: [String]) {
        self.references = references
    }
}

/// A voice note to play at a position of the episode (`--voice-at T=URL`).
public struct VoiceTrigger: Equatable, Sendable {
    public var at: StartPosition
    public var reference: String

    public init(at: StartPosition, reference: String) {
        self.at = at
        self.reference = reference
    }
}
