import AliciaTestSupport
import Foundation

/// A chat reply's `text/event-stream` body, parsed as a client must: `data: <json>` lines are
/// events, other lines (comments, blank separators) are not.
struct ChatStream {
    /// One event's JSON; which fields are set says which kind it is.
    struct Event: Decodable, Equatable {
        var t: String?
        var voice: String?
        var error: String?
        var done: Bool?
        var message_id: Int?
        var reply_id: String?
    }

    let events: [Event]
    /// Lines starting with ":" (keep-alive comments).
    let comments: [String]

    init(_ text: String) throws {
        var events: [Event] = []
        var comments: [String] = []
        // Every event is one line followed by a blank line.
        for block in text.components(separatedBy: "\n\n") where !block.isEmpty {
            for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix("data: ") {
                    events.append(try JSONDecoder().decode(Event.self, from: Data(line.dropFirst(6).utf8)))
                } else if line.hasPrefix(":") {
                    comments.append(String(line))
                } else {
                    throw HarnessError("unexpected line in the event stream: \(line.debugDescription)")
                }
            }
        }
        self.events = events
        self.comments = comments
    }

    var tokens: [String] { events.compactMap(\.t) }
    var text: String { tokens.joined() }
    var voicePaths: [String] { events.compactMap(\.voice) }
    var messageID: Int? { events.last?.message_id }
    var isDone: Bool { events.last?.done == true }
}
