/// Why a request to Alicia's backend failed, in words a person can act on.
/// Nothing in it holds the token.
public enum BackendError: Error, Sendable, Equatable {
    /// No base URL from flags, environment or the config file at `configPath` (the one looked at).
    case notConfigured(configPath: String)
    /// A base URL that is not an http(s) URL.
    case badBaseURL(String)
    /// 401: the token is wrong.
    case unauthorized
    /// 401, and no token was given at all.
    case noToken
    /// Another HTTP error status, for an endpoint.
    case httpStatus(Int, endpoint: String)
    /// The host could not be reached (refused, timed out, not found).
    case cannotConnect(host: String, reason: String)
    /// The connection failed in some other way.
    case network(endpoint: String, reason: String)
    /// The reply is not what the contract says.
    case badReply(endpoint: String, detail: String)
    /// A token file or config file that cannot be read.
    case unreadableFile(path: String, reason: String)
    /// The backend refused an action in its own words (`{"ok": false, "error": …}`).
    case backend(endpoint: String, message: String)

    /// The backend could not be reached at all (not a refusal): the offline library may stand in.
    public var isUnreachable: Bool {
        switch self {
        case .cannotConnect, .network: return true
        default: return false
        }
    }

    public var message: String {
        switch self {
        case .notConfigured(let configPath):
            return "no backend configured: pass --base-url and --token, set ALICIA_BASE_URL and ALICIA_TOKEN, "
                + "or write them to \(configPath) (base_url = …, token = …); "
                + "`alicia-player demo` runs a demo backend of its own"
        case .badBaseURL(let url):
            return "the base URL '\(url)' is not an http:// or https:// URL"
        case .unauthorized:
            return "the backend rejected the token (401): check ALICIA_TOKEN or --token"
        case .noToken:
            return "the backend wants a token (401) and no token was given: pass --token or --token-file, "
                + "set ALICIA_TOKEN, or add `token = …` to the config file"
        case .httpStatus(let status, let endpoint):
            return "the backend answered HTTP \(status) for \(endpoint)"
        case .cannotConnect(let host, let reason):
            return "cannot connect to the backend at \(host): \(reason)"
        case .network(let endpoint, let reason):
            return "the request for \(endpoint) failed: \(reason)"
        case .badReply(let endpoint, let detail):
            return "the backend's reply to \(endpoint) is not what was expected: \(detail)"
        case .unreadableFile(let path, let reason):
            return "cannot read \(path): \(reason)"
        case .backend(let endpoint, let message):
            return "the backend refused \(endpoint): \(message)"
        }
    }
}
