import AliciaAudio
import AliciaSession
import AliciaHost

/// What the accessible Studio says of the episode player by itself, from one look at its snapshot
/// to the next: each change once, as a sentence (`Playing Slow Tide, 0:00 of 45:00`, `Paused at
/// 12:03`, `Buffering`, `Reconnecting (3 s)`, `Voicing`, `Chapter 3: The interview`, a transcript's cue,
/// `Sleep in 15 minutes`, a milestone every `progressEvery` seconds). Nothing is said twice
/// without a change, and nothing is said on a clock: `deadline` names the next moment something
/// will be due (a cue's or chapter's start, a milestone), so the host wakes only then. Pure: the
/// tests feed it snapshots.
package struct LinearNarrator {
    /// `--progress-every`: a status line each time the position passes a multiple of it.
    package var progressEvery: Double?

    private var entry: QueueEntryID?
    /// Whether the entry heard now has been said (it is, once it first plays).
    private var announced = false
    private var state: PlayerState = .idle
    private var chapter: Int?
    /// The next cue of the transcript to say.
    private var cue = 0
    private var position = 0.0
    private var lookedAt = 0.0
    private var milestone: Int?
    private var sleep: SleepTimer = .off
    private var noSoundServer: String?
    /// Whether a voice note held the episode at the last look.
    private var held = false

    /// A jump further than this from where the position should be is a seek, not playing on.
    static let jump = 2.0
    /// The sleep timer's warning, this many seconds before it ends.
    static let sleepWarning = 60.0

    package init(progressEvery: Double? = nil) {
        self.progressEvery = progressEvery
    }

    /// What to say of `snapshot`, looked at at `now` (monotonic seconds).
    package mutating func lines(_ snapshot: PlayerSnapshot, now: Double) -> [String] {
        var said: [String] = []
        let jumped = isJump(snapshot, now: now)
        if snapshot.entry != entry {
            entry = snapshot.entry
            announced = false
            chapter = nil
            cue = 0
            milestone = nil
        }
        said += stateLines(snapshot)
        if announced {
            said += chapterLines(snapshot, jumped: jumped)
            said += cueLines(snapshot, jumped: jumped)
            said += milestoneLines(snapshot, jumped: jumped)
        }
        said += sleepLines(snapshot.sleepTimer)
        if snapshot.noSoundServer != noSoundServer {
            if let server = snapshot.noSoundServer { said.append("No sound server: trying \(server)") } else { said.append("Sound server back") }
            noSoundServer = snapshot.noSoundServer
        }
        position = snapshot.position
        lookedAt = now
        return said
    }

    /// When the next line will be due, if anything plays.
    package func deadline(_ snapshot: PlayerSnapshot, now: Double) -> Double? {
        switch snapshot.state {
        case .loading, .buffering, .reconnecting, .voicing: return now + 1
        case .playing where !snapshot.isHeld: break
        default: return nil
        }
        var targets: [Double] = []
        let metadata = snapshot.metadata
        if let next = metadata.chapters.first(where: { $0.start > snapshot.position }) { targets.append(next.start) }
        if cue < metadata.transcript.count { targets.append(metadata.transcript[cue].start) }
        if let every = progressEvery, every > 0 { targets.append((snapshot.position / every).rounded(.down) * every + every) }
        let speed = max(0.1, snapshot.speed)
        var times = targets.map { now + max(0.02, ($0 - snapshot.position) / speed + 0.02) }
        if case .after(let seconds) = snapshot.sleepTimer, seconds > Self.sleepWarning {
            times.append(now + (seconds - Self.sleepWarning) / speed + 0.05)
        }
        return times.min()
    }

    private func isJump(_ snapshot: PlayerSnapshot, now: Double) -> Bool {
        guard snapshot.entry == entry, announced else { return false }
        // While playing, the position is the sink's last timing report moved on by the time since
        // (up to 2 s); a pause or a speed change reads the frame heard, which may sit behind that
        // estimate by more than a second on a loaded machine. Settling back is not a seek: a jump
        // back is one of more than `jump` (a seek back of a second says no cue again).
        let expected = position + (state == .playing ? (now - lookedAt) * max(0.1, snapshot.speed) : 0)
        return snapshot.position < position - Self.jump || snapshot.position > expected + Self.jump
    }

    private mutating func stateLines(_ snapshot: PlayerSnapshot) -> [String] {
        defer {
            state = snapshot.state
            held = snapshot.isHeld
        }
        // The end of a voice note's hold is said as playing on; the hold itself by the note.
        let released = held && !snapshot.isHeld && snapshot.state == .playing
        guard snapshot.state != state || (!announced && snapshot.state == .playing) || released else { return [] }
        if snapshot.isHeld { return [] }
        switch snapshot.state {
        case .playing:
            announced = true
            return [ProgressLine.words(snapshot)]
        // Paused just after a hold: the note has ended and the episode is about to go on.
        case .paused where announced && !held: return ["Paused at \(TimeSpec.clock(snapshot.position))"]
        case .buffering where announced: return ["Buffering"]
        // A read-aloud item whose voice is behind the listener.
        case .voicing where announced: return ["Voicing"]
        case .reconnecting: return ["Reconnecting" + (snapshot.reconnectingFor.map { " (\(Int($0.rounded())) s)" } ?? "")]
        default: return []
        }
    }

    /// A chapter once as playing reaches it; an earlier one only after a jump back (a position
    /// that settles a little behind its estimate at a pause has not gone back a chapter).
    private mutating func chapterLines(_ snapshot: PlayerSnapshot, jumped: Bool) -> [String] {
        let chapters = snapshot.metadata.chapters
        guard !chapters.isEmpty else { return [] }
        guard let index = ChapterMap.index(of: snapshot.position, in: chapters), index >= 0, index != chapter else { return [] }
        if let chapter, index < chapter, !jumped { return [] }
        chapter = index
        let title = chapters[index].title
        let number = "Chapter \(index + 1)"
        return [title == number || title.isEmpty ? number : "\(number): \(title)"]
    }

    private mutating func cueLines(_ snapshot: PlayerSnapshot, jumped: Bool) -> [String] {
        let transcript = snapshot.metadata.transcript
        guard !transcript.isEmpty else { return [] }
        let now = snapshot.position + 0.05
        if jumped {
            // After a seek: the cue being spoken there, if one is and it is not the one said last
            // (a speed change, or a seek within the cue, lands in it again), and on from the next.
            let saidLast = cue - 1
            cue = transcript.firstIndex { $0.start > now } ?? transcript.count
            guard cue > 0, cue - 1 != saidLast else { return [] }
            let current = transcript[cue - 1]
            let end = current.end ?? (cue < transcript.count ? transcript[cue].start : .infinity)
            return end > snapshot.position ? [current.line] : []
        }
        var said: [String] = []
        while cue < transcript.count && transcript[cue].start <= now {
            said.append(transcript[cue].line)
            cue += 1
        }
        return said
    }

    private mutating func milestoneLines(_ snapshot: PlayerSnapshot, jumped: Bool) -> [String] {
        guard let every = progressEvery, every > 0 else { return [] }
        let reached = Int((snapshot.position / every).rounded(.down))
        defer { milestone = reached }
        guard let last = milestone, !jumped, reached > last, snapshot.state == .playing else { return [] }
        return [ProgressLine.words(snapshot)]
    }

    private mutating func sleepLines(_ timer: SleepTimer) -> [String] {
        defer { sleep = timer }
        switch (sleep, timer) {
        case (.off, .off): return []
        case (.after(let before), .after(let now)):
            if now > before + 1 { return [Self.sleepText(timer)] }
            if before > Self.sleepWarning && now <= Self.sleepWarning { return ["Sleep in 1 minute"] }
            return []
        case (.after(let before), .off):
            // Its own end is said as `asleep`.
            return before > SleepTimer.fadeSeconds + 1 ? ["Sleep timer off"] : []
        case (_, .off): return ["Sleep timer off"]
        default: return timer == sleep ? [] : [Self.sleepText(timer)]
        }
    }

    /// `Sleep in 15 minutes`, `Sleep at the end of this item`.
    package static func sleepText(_ timer: SleepTimer) -> String {
        switch timer {
        case .off: return "Sleep timer off"
        case .after(let seconds) where seconds >= 90: return "Sleep in \(Int((seconds / 60).rounded())) minutes"
        case .after(let seconds): return "Sleep in \(Int(seconds.rounded(.up))) seconds"
        case .endOfEntries(1): return "Sleep at the end of this item"
        case .endOfEntries(let count): return "Sleep after \(count) items"
        case .endOfChapter: return "Sleep at the end of this chapter"
        }
    }
}
