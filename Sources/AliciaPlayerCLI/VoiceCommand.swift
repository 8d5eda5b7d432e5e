import AliciaAudio

/// `alicia-player voice <ref>`: plays one voice note alone, on the voice-note
/// player's stream (its own media name), to its end.
struct VoiceCommand {
    let options: PlayOptions

    func run() -> Int32 {
        let signals = SignalWatcher()
        guard let note = References.voiceNote(options.reference, backend: options.backend) else {
            return CommandLineTool.Status.failure
        }
        var configuration = PlayerConfiguration(device: options.device)
        configuration.readAheadSeconds = options.readAheadSeconds
        configuration.mediaName = "Alicia voice note: " + note.title
        let player = Player(configuration: configuration)
        signals.whenSignalled { player.wakeEventWaiters() }
        let session = PlaybackSession(player: player, signals: signals, options: options)
        return PlaybackSession.status(of: session.play(note.location))
    }
}
