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
        var sessionOptions = PlaybackSession.sessionOptions(options, voiceNotes: false)
        // A note is too short for a running loudness estimate: measured whole before it plays.
        sessionOptions.configuration.measureLoudnessFirst = true
        let session = ListeningSession(sessionOptions)
        // One note and done: no control socket.
        var alone = options
        alone.noIPC = true
        // Nothing follows a note: no auto-download (whatever the config file says).
        alone.autoDownload = 0
        let playback = PlaybackSession(session: session, signals: signals, options: alone)
        return PlaybackSession.status(of: playback.play([QueueItem(location: note.location, title: "Alicia voice note: " + note.title)]))
    }
}
