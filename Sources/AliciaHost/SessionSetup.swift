#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaBackend
import AliciaSession
import AliciaLocks
import AliciaLibrary

/// A listening session's options from the command line's, and its way to Alicia: what every
/// playing command makes its session with.
package enum SessionSetup {
    /// The session's options from the command line's.
    package static func options(_ options: PlayOptions, voiceNotes: Bool = true) -> ListeningSession.Options {
        var made = ListeningSession.Options()
        made.configuration = PlayerConfiguration(device: options.device)
        made.configuration.readAheadSeconds = options.readAheadSeconds
        made.configuration.network = options.network
        made.speed = options.speed
        made.silenceSkipping = options.skipSilence
        made.sleepTimer = options.sleep
        made.loudness = options.loudness ?? defaultLoudness()
        made.volumePercent = options.volume ?? 100
        made.voiceFocus = options.voiceFocus
        made.noteRewind = options.noteRewind
        made.voiceNotes = voiceNotes
        made.fromStart = options.fromStart
        made.chat = chatLink(options.backend)
        if let directory = PositionStore.defaultDirectory() {
            let store = PositionStore(directory: directory)
            for warning in store.warnings { Console.fail("warning: " + warning) }
            made.positions = store
            made.loudnessCache = LoudnessCache(directory: directory)
        }
        return made
    }

    /// Matched loudness when `--loudness` is not given: `ALICIA_LOUDNESS`, else −16 LUFS.
    package static func defaultLoudness() -> LoudnessMatching {
        guard let text = getenv("ALICIA_LOUDNESS").map({ String(cString: $0) }), !text.isEmpty else { return .standard }
        guard let matching = LevelText.loudness(text) else {
            Console.fail("warning: ALICIA_LOUDNESS='\(text)' is not off or a target from -40 to -5: matching to -16 LUFS")
            return .standard
        }
        return matching
    }

    /// `say` through the backend `options` name: resolved when first used (a session with no
    /// backend says so then).
    package static func chatLink(_ options: BackendOptions) -> ChatLink {
        chatLink {
            do throws(BackendError) {
                return .success(try BackendSession(options).client.configuration)
            } catch .notConfigured {
                return .failure("say needs Alicia's backend, and none is configured")
            } catch {
                return .failure(ChatFailure(error.message))
            }
        }
    }

    /// `say` through a backend already resolved (the Studio's, the demo's).
    package static func chatLink(_ configuration: BackendConfiguration) -> ChatLink {
        chatLink { .success(configuration) }
    }

    /// `say` with a client of its own per chat (a curl handle is one thread's).
    private static func chatLink(_ backend: @escaping @Sendable () -> Result<BackendConfiguration, ChatFailure>) -> ChatLink {
        ChatLink { text, voice, cancelled, event in
            let client: BackendClient
            switch backend() {
            case .failure(let failure): return event(.failed(failure.message))
            case .success(let configuration):
                do throws(BackendError) {
                    client = try BackendClient(configuration: configuration)
                } catch {
                    return event(.failed(error.message))
                }
            }
            client.cancel(when: cancelled)
            // Her own words when an `error` event ended the reply (said once, as the failure).
            var herError: String?
            let directory = PositionStore.defaultDirectory()
            let request = ChatResend.request(text: text, voice: voice, directory: directory)
            let outcome = client.chat(request) { chat in
                switch chat {
                case .token(let piece): event(.token(piece))
                case .voice(let path):
                    if let location = client.mediaLocation(for: path) {
                        event(.voice(location))
                    } else {
                        event(.problem("the voice note path '\(path)' does not make a URL"))
                    }
                case .error(let message): herError = message
                case .done, .replyID, .unknown: break
                }
            }
            ChatResend.settle(request, by: outcome, directory: directory)
            switch outcome {
            case .done(let reply): event(.replied(text: reply.text, messageID: reply.messageID?.text))
            case .failed(_, let reason): event(.failed(herError.map { "Alicia: \($0)" } ?? reason))
            case .rejected(let error), .unconfirmed(let error): event(.failed(error.message))
            }
        }
    }

    package struct ChatFailure: Error, ExpressibleByStringLiteral {
        package let message: String
        package init(_ message: String) { self.message = message }
        package init(stringLiteral message: String) { self.message = message }
    }
}
