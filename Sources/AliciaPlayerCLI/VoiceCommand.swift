import AliciaAudio
import AliciaSession
import AliciaLocks
import AliciaLibrary
import AliciaHost

/// `alicia-player voice <ref>`: plays one voice note alone, to its end.
struct VoiceCommand {
    let options: PlayOptions

    func run() -> Int32 {
        let signals = SignalWatcher()
        guard let note = References.voiceNote(options.reference, backend: options.backend) else {
            return ExitCode.failure
        }
        // One note and done: no control socket, and nothing follows it to auto-download (whatever
        // the config file says).
        var alone = options
        alone.noIPC = true
        alone.autoDownload = 0
        let opened = SessionHost.open(alone, signals: signals, voiceNotes: false) { session in
            // A note is too short for a running loudness estimate: measured whole before it plays.
            session.configuration.measureLoudnessFirst = true
        }
        switch opened {
        case .failure(let failure): return failure.status
        case .success(let host):
            return PlaybackFrontEnd.play([QueueItem(location: note.location, title: "Alicia voice note: " + note.title)], host: host)
        }
    }
}
