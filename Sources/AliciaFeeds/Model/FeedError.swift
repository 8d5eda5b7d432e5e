/// Why a document could not be read at all, in one line a person can read. Problems that leave a
/// feed readable are its warnings instead.
public struct FeedError: Error, Sendable, Equatable {
    public enum Reason: Sendable, Equatable {
        /// No bytes, or only white space.
        case empty
        /// Larger than the limit the read was given.
        case tooLarge
        /// Well-formed enough, but not RSS, Atom, OPML or an HTML page that names a feed.
        case notAFeed
        /// libxml2 could make nothing of it.
        case unparsable
        /// libxml2 could not be loaded.
        case libraryUnavailable
    }

    public let reason: Reason
    public let message: String

    /// `message` on one line: what it quotes of the document (libxml2's messages quote names and
    /// text) has its line breaks and other control characters made spaces.
    public init(_ reason: Reason, _ message: String) {
        self.reason = reason
        self.message = message.oneLine
    }
}
