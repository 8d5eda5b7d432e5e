/// Why playback could not start or go on, in words a person can act on.
/// URLs in it are already redacted.
public enum PlaybackError: Error, Sendable, Equatable {
    /// The server answered with an HTTP error status.
    case httpStatus(Int, url: String)
    /// The host could not be reached.
    case cannotConnect(host: String, reason: String)
    /// The connection broke or stalled and retrying did not help.
    case network(url: String, reason: String)
    /// The server answered a Range request with other bytes than asked for.
    case rangeNotHonoured(url: String, detail: String)
    /// A local file that is not there or cannot be read.
    case cannotOpenFile(path: String, reason: String)
    /// A local file that opened but whose bytes could not be read (a disk error, a file system gone).
    case cannotReadFile(path: String, reason: String)
    /// A link that is not one the player can fetch.
    case badLocation(String)
    /// libsndfile could not read the audio.
    case cannotDecode(url: String, reason: String)
    /// No PulseAudio server to play to.
    case noAudioServer(reason: String)
    /// PulseAudio refused or dropped the stream.
    case audioOutput(reason: String)
    /// The file on the server is not the one that was playing any more (another ETag,
    /// Last-Modified or length): stopped rather than splice two files.
    case changedOnServer(url: String)
    /// The server could not be reached for the whole patience (`--give-up-after`).
    case gaveUp(after: Double, PlaybackErrorBox)

    public var message: String {
        switch self {
        case .httpStatus(let status, let url):
            return "HTTP \(status) \(Self.reasonPhrase(status)) for \(url)"
        case .cannotConnect(let host, let reason):
            return "cannot connect to \(host): \(reason)"
        case .network(let url, let reason):
            return "connection to \(url) failed: \(reason)"
        case .rangeNotHonoured(let url, let detail):
            return "the server did not honour a Range request for \(url): \(detail)"
        case .cannotOpenFile(let path, let reason):
            return "cannot open \(path): \(reason)"
        case .cannotReadFile(let path, let reason):
            return "cannot read \(path): \(reason)"
        case .badLocation(let detail):
            return detail
        case .cannotDecode(let url, let reason):
            return "cannot decode \(url): \(reason)"
        case .noAudioServer(let reason):
            return "no PulseAudio server (\(reason)): \(SoundServerAdvice.installed.words), or point PULSE_SERVER at one"
        case .audioOutput(let reason):
            return "PulseAudio: \(reason)"
        case .changedOnServer(let url):
            return "the episode changed on the server while it played: \(url) (play it again to hear the new one)"
        case .gaveUp(let seconds, let box):
            let waited = seconds >= 120 && seconds.truncatingRemainder(dividingBy: 60) == 0 ? "\(Int(seconds / 60)) min" : "\(Int(seconds.rounded())) s"
            return "gave up after \(waited) of retrying: \(box.error.message) (the position is saved)"
        }
    }

    static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 406: return "Not Acceptable"
        case 408: return "Request Timeout"
        case 410: return "Gone"
        case 416: return "Range Not Satisfiable"
        case 429: return "Too Many Requests"
        case 500: return "Internal Server Error"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        default: return status >= 500 ? "Server Error" : "Error"
        }
    }
}

/// A `PlaybackError` inside another (an enum cannot hold itself directly).
public final class PlaybackErrorBox: Sendable, Equatable {
    public let error: PlaybackError
    public init(_ error: PlaybackError) { self.error = error }
    public static func == (a: PlaybackErrorBox, b: PlaybackErrorBox) -> Bool { a.error == b.error }
}
