import AliciaLocks
/// Where the backend is, as given on the command line (the environment and the
/// config file fill in what is missing).
public struct BackendOptions: Equatable, Sendable {
    public var baseURL: String?
    public var token: String?
    public var tokenFile: String?

    public init(baseURL: String? = nil, token: String? = nil, tokenFile: String? = nil) {
        self.baseURL = baseURL
        self.token = token
        self.tokenFile = tokenFile
    }
}
