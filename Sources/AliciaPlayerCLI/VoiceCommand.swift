import AliciaAudio
import AliciaSession

/// `alicia-player voice <ref>`: plays one voice note alone, to its end.
struct VoiceCommand {
    let options: PlayOptions

    func run() -> Int32 {
        let signals = SignalWatcher()
        guard let note = References.voiceNote(options.reference, backend: options.backend) else {
            return CommandLineTool.Status.failure
        }
        let session = ListeningSession(PlaybackSession.sessionOptions(options, voiceNotes: false))
        // One note and done: no control socket.
        var alone = options
        alone.noIPC = true
        let playback = PlaybackSession(session: session, signals: signals, options: alone)
        return PlaybackSession.status(of: playback.play([QueueItem(location: note.location, title: "Alicia voice note: " + note.title)]))
    }
}
