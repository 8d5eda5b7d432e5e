import AliciaAudio
import AliciaBackend
import AliciaSession

/// `alicia-player chat "text" [--voice] [--react EMOJI]`: sends a message, prints
/// Alicia's reply as the tokens stream in, plays the reply's voice note on the
/// voice-note player as soon as it is announced, and ends with the message id.
struct ChatCommand {
    let options: ChatOptions

    func run() -> Int32 {
        let signals = SignalWatcher()
        let backend: BackendSession
        do {
            backend = try BackendSession(options.backend)
        } catch {
            Console.fail(error.message)
            return CommandLineTool.Status.failure
        }
        // The voice-note player needs an episode to take the focus from; here there is none.
        let idleEpisode = Player(configuration: PlayerConfiguration(device: options.device))
        let voiceNotes = VoiceNotes(episode: idleEpisode, configuration: PlayerConfiguration(device: options.device))
        voiceNotes.player.setVolume(VolumeScale.linear(percent: options.volume ?? 100))
        defer { voiceNotes.stop() }
        signals.whenSignalled { voiceNotes.skip() }
        let client = backend.client
        let reply: ChatReply
        do {
            reply = try client.chat(options.text, voice: options.voice) { event in
                switch event {
                case .token(let piece):
                    Console.out(piece)
                case .voice(let path):
                    if let location = try? MediaLocation(client.mediaURL(for: path)) {
                        voiceNotes.enqueue(location, title: PlayCommand.fileName(location))
                    } else {
                        Console.fail("the voice note path '\(path)' does not make a URL")
                    }
                case .error(let message):
                    Console.fail("Alicia: \(message)")
                case .done, .unknown:
                    break
                }
            }
        } catch {
            Console.fail(error.message)
            return CommandLineTool.Status.failure
        }
        // The reader of the reply has gone (`chat … | head -1`): nothing left worth doing.
        if Console.stdoutClosed { return CommandLineTool.Status.success }
        Console.out(reply.text.hasSuffix("\n") ? "" : "\n")
        if let id = reply.messageID { Console.out("message \(id)\n") }
        var status = CommandLineTool.Status.success
        while !voiceNotes.waitUntilIdle(timeout: .milliseconds(250)) {
            if let signal = signals.signal { return 128 + signal }
        }
        while let event = voiceNotes.nextEvent(timeout: .zero) {
            if case .failed(_, let error) = event {
                Console.fail("the voice note did not play: \(error.message)")
                status = CommandLineTool.Status.failure
            }
        }
        if let emoji = options.react {
            guard let id = reply.messageID else {
                Console.fail("cannot react: the reply had no message id")
                return CommandLineTool.Status.failure
            }
            do {
                try client.react(messageID: id, emoji: emoji)
            } catch {
                Console.fail(error.message)
                return CommandLineTool.Status.failure
            }
        }
        if let signal = signals.signal { return 128 + signal }
        return status
    }
}
