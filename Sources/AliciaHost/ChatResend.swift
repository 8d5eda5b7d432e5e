#if canImport(Glibc)
import Glibc
#endif
import AliciaBackend
import AliciaLocks

/// The `request_id` of a message whose reply was not confirmed, kept across runs as the app keeps
/// it (ten minutes): the same text sent again (`chat` run again after a reply that stopped) goes
/// with the same id, so a reply already made is not made twice. In the state directory
/// (`chat-pending`: the id, when it was sent in seconds since 1970, the text), mode 0600.
package enum ChatResend {
    /// The request for `text`: the pending one's id when it is the same text, sent within ten minutes.
    package static func request(text: String, voice: Bool, directory: String?) -> ChatRequest {
        var memory = ChatRequestMemory()
        let now = wallClock()
        if let directory, let pending = load(directory), pending.text == text {
            memory.remember(ChatRequest(text: text, voice: voice, requestID: pending.id), sentAt: pending.sentAt)
        }
        return memory.request(text: text, voice: voice, now: now)
    }

    /// After the chat: a reply made or refused forgets the request; one that stopped or could not be
    /// confirmed keeps it for a resend.
    package static func settle(_ request: ChatRequest, by outcome: ChatOutcome, directory: String?) {
        guard let directory else { return }
        switch outcome {
        case .done, .rejected:
            unlink(directory + "/chat-pending")
        case .failed, .unconfirmed:
            let line = "\(request.requestID.text)\t\(Int(wallClock()))\t\(request.text)"
            _ = AtomicFile.write(Array(line.utf8), to: directory + "/chat-pending", mode: 0o600, makeDirectories: true)
        }
    }

    private static func load(_ directory: String) -> (id: UUIDv4, sentAt: Double, text: String)? {
        guard case .success(let bytes) = AtomicFile.read(directory + "/chat-pending", limit: 1 << 20) else { return nil }
        let fields = String(decoding: bytes, as: UTF8.self).split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
        guard fields.count == 3, let id = UUIDv4(String(fields[0])), let sentAt = Double(fields[1]) else { return nil }
        return (id, sentAt, String(fields[2]))
    }

    private static func wallClock() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Double(now.tv_sec)
    }
}
