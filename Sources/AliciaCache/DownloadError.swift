/// Why a download stopped, in words a person can act on. URLs in it are the displayed ones
/// (token as `***`); the `.part` file is kept wherever resuming makes sense.
package enum DownloadError: Error, Equatable, Sendable {
    /// An HTTP error status.
    case httpStatus(Int, url: String)
    /// The connection failed and retries did not help.
    case network(url: String, reason: String, kept: Int64)
    /// A write failed because the disk is full; the `.part` is kept for later.
    case diskFull(part: String, kept: Int64)
    /// Another write failure.
    case write(path: String, reason: String)
    /// Stopped by a signal; the `.part` is kept and the next `download` resumes it.
    case interrupted(kept: Int64)
    /// The server's answer cannot be used (a Range answer for other bytes, a file shorter than it said).
    case badReply(url: String, detail: String)
    /// The cache itself cannot be used.
    case cache(String)

    package var message: String {
        switch self {
        case .httpStatus(let status, let url):
            return "the server answered HTTP \(status) for \(url)"
        case .network(let url, let reason, let kept):
            return "the download of \(url) failed: \(reason)" + Self.keptNote(kept)
        case .diskFull(let part, let kept):
            return "the disk is full: stopped writing \(part) (\(ByteSize.format(kept)) kept; free some space and "
                + "run download again to resume, or lower the cache with `alicia-player cache --max-size`)"
        case .write(let path, let reason):
            return "cannot write \(path): \(reason)"
        case .interrupted(let kept):
            return "interrupted" + Self.keptNote(kept)
        case .badReply(let url, let detail):
            return "the server's answer for \(url) cannot be used: \(detail)"
        case .cache(let message):
            return message
        }
    }

    private static func keptNote(_ kept: Int64) -> String {
        kept > 0 ? " (\(ByteSize.format(kept)) kept: run download again to resume)" : ""
    }
}
