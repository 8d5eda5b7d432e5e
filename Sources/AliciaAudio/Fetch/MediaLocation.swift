#if canImport(Glibc)
import Glibc
#endif
internal import AliciaCurl

/// Where a stream's bytes come from: an `http(s)://` or `file://` URL, or a
/// plain path, which becomes a `file://` URL.
public struct MediaLocation: Sendable, Equatable {
    /// The URL handed to libcurl. May hold a token: never show it; show `redacted`.
    public let url: String
    /// For `file://` locations, the decoded local path.
    public let filePath: String?
    /// How to name it to a person: the path as given, or the URL with its token hidden.
    public let display: String
    /// The same media elsewhere, asked when `url`'s server never answers: a playlist episode added
    /// from the phone names the phone's host, and its path on our own backend is the fallback.
    /// May hold a token: never show it.
    public var fallback: String?

    public enum Problem: Error, Sendable, Equatable {
        case unsupportedScheme(String)
        case empty
    }

    public init(_ reference: String) throws(Problem) {
        guard !reference.isEmpty else { throw .empty }
        if let colon = reference.firstIndex(of: ":"), reference[colon...].hasPrefix("://") {
            let scheme = reference[..<colon].lowercased()
            switch scheme {
            case "http", "https":
                url = reference
                filePath = nil
                display = RedactedURL.redact(reference)
            case "file":
                url = reference
                let rest = reference[reference.index(colon, offsetBy: 3)...]
                // file://host/path: only the local host (empty or "localhost") is meaningful.
                let pathStart = rest.firstIndex(of: "/") ?? rest.endIndex
                filePath = Self.percentDecoded(String(rest[pathStart...]))
                display = RedactedURL.redact(reference)
            default:
                throw .unsupportedScheme(String(scheme))
            }
        } else {
            let absolute = reference.hasPrefix("/") ? reference : Self.currentDirectory() + "/" + reference
            filePath = absolute
            url = "file://" + Self.percentEncodedPath(absolute)
            display = reference
        }
    }

    public var isFile: Bool { filePath != nil }

    /// The URL as it may be shown to a person: every token value replaced by `***`.
    public var redacted: String { RedactedURL.redact(url) }

    static func percentEncodedPath(_ path: String) -> String {
        var encoded = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "/"), UInt8(ascii: "-"),
                 UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".utf8)
                encoded += "%" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]], as: UTF8.self)
            }
        }
        return encoded
    }

    public static func percentDecoded(_ text: String) -> String {
        PercentDecoding.decoded(text.utf8)
    }

    private static func currentDirectory() -> String {
        guard let cwd = getcwd(nil, 0) else { return "." }
        defer { free(cwd) }
        return String(cString: cwd)
    }
}

extension String {
    /// Whether the text starts with a URL scheme (`http://`, `file://`…). A byte scan: the string
    /// searching of `contains(_:)` lives in _StringProcessing, whose code the player otherwise never
    /// needs resident. On `String`, not `StringProtocol`: a generic property is called from other
    /// modules unspecialized, through the UTF-8 view's witness tables.
    public var hasURLScheme: Bool {
        var previous: (UInt8, UInt8) = (0, 0)
        for byte in utf8 {
            if previous == (UInt8(ascii: ":"), UInt8(ascii: "/")) && byte == UInt8(ascii: "/") { return true }
            previous = (previous.1, byte)
        }
        return false
    }
}
