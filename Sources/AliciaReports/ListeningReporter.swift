import AliciaAudio
import AliciaBackend
import AliciaSession

/// Listening evidence by the app's rules (alicia-api.md, "Alicia 2.0", `POST /api/episode_day`),
/// made from what the host sees each turn: the session's notices, the episode player's snapshot,
/// and the monotonic time (given, so a test drives it with a clock of its own). It keeps no clock,
/// thread or I/O of its own: it answers with the events to send, and says when it next needs a
/// turn (`deadline()`).
///
/// The rules:
/// - `playing` on the first tick of an episode's playback (once per entry heard; a resume after a
///   pause goes on with `progress`);
/// - `progress` after every 15 s actually played. A stretch between two ticks counts only when the
///   ticks are under 3 s apart and the position moved forward by at most elapsed × rate + 1 s: a
///   seek, a stall, buffering or a download is not listening, and a pause stops the counting;
///   what counts is how far the position moved (at 1.5× a second of listening hears 1.5 s);
/// - a `progress` with what was heard so far on pause (or a hold for a voice note), seek, skip,
///   item change and failure, and when the session closes;
/// - `finished` at the natural end (a `.finished` notice not truncated), with what was heard since
///   the last event;
/// - `selected` only when a front end says the listener chose the episode (`selected(_:)`).
/// Only Alicia's episodes are reported: items with a label, named `episode:<label>`
/// (`EpisodeDayEvent.episodeID(label:)`).
package final class ListeningReporter {
    /// A tick each second while playing: the rule counts only ticks under 3 s apart, so a tick may
    /// come up to 2 s late (a loaded machine, a slow turn) before listening goes uncounted.
    package static let tickInterval = 1.0
    /// Ticks this far apart (seconds) or more are not listening: a stall, a suspended machine.
    package static let maximumGap = 3.0
    /// What the position may move beyond elapsed × rate and still be listening (seconds).
    package static let slack = 1.0
    /// A `progress` after this much played (seconds).
    package static let progressEvery = 15.0
    /// A position that went back by less than this (seconds) is a reading's jitter, not a seek.
    static let jitter = 0.25
    /// The shortest wait for the next tick (seconds): the position moves in steps of a chunk
    /// (2,048 frames, about 43 ms), so asking sooner would only read the same place again.
    static let shortestWait = 0.25

    /// The episode being followed: the entry heard, what it is, what was heard since its last event.
    private struct Followed {
        let entry: QueueEntryID
        let episodeID: String
        let title: String
        /// `playing` was sent.
        var announced = false
        /// Milliseconds heard since the last event; what an event leaves below a whole millisecond
        /// stays, so the events' `played_ms` add up to what was heard.
        var heardMS = 0.0
        /// The position last read, and the length when known (seconds).
        var position = 0.0
        var duration: Double?
        /// The last tick while it played; nil while it does not (paused, buffering, a seek in flight).
        var tick: Tick?
    }

    private struct Tick {
        var time: Double
        var position: Double
        var speed: Double
    }

    /// What a stretch between two ticks was.
    private enum Stretch {
        case heard
        /// The position moved back, or further than playing could take it: a seek.
        case jumped
        /// Within bounds but too long after the last tick to be counted (a stall).
        case late
    }

    /// Now, in seconds since 1970: the events' `observed_at`.
    private let wallClock: () -> Int
    private var followed: Followed?
    /// The episode an item change left (a join read before its end's notice): the notice, when it
    /// comes, still finishes it.
    private var departed: Followed?
    /// The entry last heard to its end: not followed again until it starts again (a loop).
    private var finishedEntry: QueueEntryID?

    package init(wallClock: @escaping () -> Int = ISO8601UTC.now) {
        self.wallClock = wallClock
    }

    /// The `episode_id` of `item`, when it is one of Alicia's episodes (it has a label).
    package static func episodeID(of item: QueueItem) -> String? {
        guard let label = item.label, !label.isEmpty else { return nil }
        return EpisodeDayEvent.episodeID(label: label)
    }

    /// One turn of the host: the notices it read and the episode player's snapshot after the
    /// front end's turn (so a seek or a skip just asked shows as pending), at `now` (monotonic
    /// seconds). Returns the events, in order.
    package func update(_ notices: [SessionNotice], _ snapshot: PlayerSnapshot, at now: Double) -> [EpisodeDayEvent] {
        var events: [EpisodeDayEvent] = []
        for notice in notices { take(notice, at: now, into: &events) }
        follow(snapshot, at: now, into: &events)
        return events
    }

    /// When the next turn is needed (monotonic seconds): while an episode plays, a second after the
    /// last tick, or sooner when 15 s of playing fall due; nil otherwise (a change of state, a seek
    /// or an item wakes the host by itself).
    package func deadline() -> Double? {
        guard let episode = followed, let tick = episode.tick else { return nil }
        let untilProgress = (Self.progressEvery * 1000 - episode.heardMS) / 1000 / max(tick.speed, 0.1)
        return tick.time + min(Self.tickInterval, max(Self.shortestWait, untilProgress))
    }

    /// `selected` for `item`, chosen explicitly by the listener (never by auto-advance); nil when
    /// it is not one of Alicia's episodes.
    package func selected(_ item: QueueItem) -> EpisodeDayEvent? {
        guard let episodeID = Self.episodeID(of: item) else { return nil }
        var position = 0.0
        if case .seconds(let seconds)? = item.start { position = seconds }
        return EpisodeDayEvent(action: .selected, episodeID: episodeID, positionMS: Self.milliseconds(position), playedMS: 0,
                               title: item.title, observedAt: wallClock())
    }

    /// The session closes (its players held): what was heard since the last event, as a `progress`.
    package func close(_ snapshot: PlayerSnapshot, at now: Double) -> [EpisodeDayEvent] {
        var events: [EpisodeDayEvent] = []
        follow(snapshot, at: now, into: &events)
        if var episode = followed {
            flush(&episode, into: &events)
            followed = nil
        }
        departed = nil
        return events
    }

    // MARK: Notices

    private func take(_ notice: SessionNotice, at now: Double, into events: inout [EpisodeDayEvent]) {
        switch notice {
        case .started(let entry, _):
            if finishedEntry == entry { finishedEntry = nil }
        case .finished(let entry, _, let truncated):
            finishedEntry = entry
            if var episode = followed, episode.entry == entry {
                followed = nil
                end(&episode, truncated: truncated, at: now, into: &events)
            } else if var episode = departed, episode.entry == entry {
                departed = nil
                end(&episode, truncated: truncated, at: now, into: &events)
            }
        case .failed(let entry?, _, _):
            if var episode = followed, episode.entry == entry {
                followed = nil
                flush(&episode, into: &events)
            }
        default:
            break
        }
    }

    /// The episode was heard to its end: the last stretch up to its length counts, then `finished`
    /// (or, cut short by a truncated file, a `progress`: that is no natural end).
    private func end(_ episode: inout Followed, truncated: Bool, at now: Double, into events: inout [EpisodeDayEvent]) {
        guard episode.announced else { return }
        if truncated {
            flush(&episode, into: &events)
            return
        }
        let end = max(episode.duration ?? episode.position, episode.position)
        if let tick = episode.tick { _ = credit(&episode, from: tick, to: end, at: now, speed: tick.speed) }
        episode.position = end
        emit(.finished, &episode, into: &events)
    }

    // MARK: The snapshot

    private func follow(_ snapshot: PlayerSnapshot, at now: Double, into events: inout [EpisodeDayEvent]) {
        if followed?.entry != snapshot.entry {
            if var left = followed {
                // A skip, a jump, or a join read before its end's notice: what was heard so far.
                flush(&left, into: &events)
                departed = left
            }
            followed = nil
            if let entry = snapshot.entry, entry != finishedEntry, let item = snapshot.item, let episodeID = Self.episodeID(of: item) {
                followed = Followed(entry: entry, episodeID: episodeID, title: item.title)
            }
        }
        guard var episode = followed else { return }
        observe(&episode, snapshot, at: now, into: &events)
        followed = episode
    }

    /// One look at the episode followed: the stretch since the last tick, then what its state says.
    private func observe(_ episode: inout Followed, _ snapshot: PlayerSnapshot, at now: Double, into events: inout [EpisodeDayEvent]) {
        if let duration = snapshot.duration { episode.duration = duration }
        let wasPlaying = episode.tick != nil
        if let tick = episode.tick,
           credit(&episode, from: tick, to: snapshot.position, at: now, speed: max(tick.speed, snapshot.speed)) == .jumped {
            // A seek that landed between two turns: what came before it was flushed by nobody.
            flush(&episode, into: &events)
        }
        episode.position = snapshot.position
        // A seek or a jump asked and not yet begun: the position read is still the one heard.
        let seeking = snapshot.seekTarget != nil || snapshot.pendingEntry.map { $0 != episode.entry } == true
        let playing = snapshot.state == .playing && !snapshot.isHeld
        if seeking {
            flush(&episode, into: &events)
            episode.tick = nil
        } else if playing {
            if !episode.announced {
                episode.announced = true
                emit(.playing, &episode, into: &events)
            }
            episode.tick = Tick(time: now, position: snapshot.position, speed: snapshot.speed)
            if episode.heardMS >= Self.progressEvery * 1000 { emit(.progress, &episode, into: &events) }
        } else {
            if wasPlaying && (snapshot.state == .paused || snapshot.isHeld) { flush(&episode, into: &events) }
            episode.tick = nil
        }
    }

    /// Counts the stretch from `tick` to `position` at `now` when it was listening.
    private func credit(_ episode: inout Followed, from tick: Tick, to position: Double, at now: Double, speed: Double) -> Stretch {
        let elapsed = now - tick.time
        var moved = position - tick.position
        if moved < 0 && moved > -Self.jitter { moved = 0 }
        guard moved >= 0, moved <= max(0, elapsed) * speed + Self.slack else { return .jumped }
        guard elapsed < Self.maximumGap else { return .late }
        episode.heardMS += moved * 1000
        return .heard
    }

    // MARK: Events

    /// A `progress` with what was heard since the last event, when anything was.
    private func flush(_ episode: inout Followed, into events: inout [EpisodeDayEvent]) {
        guard episode.announced, episode.heardMS >= 1 else { return }
        emit(.progress, &episode, into: &events)
    }

    private func emit(_ action: EpisodeDayEvent.Action, _ episode: inout Followed, into events: inout [EpisodeDayEvent]) {
        // `playing` says where listening begins; what is heard goes into the events after it.
        let played = action == .playing ? 0 : Int(episode.heardMS.rounded(.down))
        episode.heardMS -= Double(played)
        events.append(EpisodeDayEvent(action: action, episodeID: episode.episodeID, positionMS: Self.milliseconds(episode.position),
                                      playedMS: played, title: episode.title, observedAt: wallClock()))
    }

    static func milliseconds(_ seconds: Double) -> Int {
        guard seconds.isFinite, seconds > 0 else { return 0 }
        return Int((seconds * 1000).rounded())
    }
}
