#if canImport(Glibc)
import Glibc
#endif

/// What `alicia-player config` shows: every setting's effective value and where it came from,
/// by the same precedence `resolve` follows (flag, then environment, then the config file).
extension ConfigurationLoader {
    /// Where a setting's value came from.
    public enum Origin: Sendable, Equatable {
        /// `--base-url`, `--token`, `--token-file`.
        case flag(String)
        /// `ALICIA_BASE_URL`, `ALICIA_TOKEN`.
        case environment(String)
        /// A line of the config file.
        case file(path: String, line: Int)
        case notSet
    }

    public struct Setting: Sendable, Equatable {
        /// The config file's key: `base_url`, `token`, `token_file`.
        public var key: String
        /// Nil when not set.
        public var value: String?
        public var origin: Origin
        /// The value is a secret, shown as `***`.
        public var isSecret: Bool { key == "token" }

        public init(key: String, value: String?, origin: Origin) {
            self.key = key
            self.value = value
            self.origin = origin
        }
    }

    public struct Effective: Sendable, Equatable {
        public var configPath: String
        public var fileExists: Bool
        /// `base_url`, then `token`, then `token_file`, then the other keys of the file
        /// (`auto_download`, `cache_max_size`). When a token is given, a `token_file` below it in
        /// precedence is not read, and is shown as set but unused.
        public var settings: [Setting]
        public var warnings: [String]

        public init(configPath: String, fileExists: Bool, settings: [Setting], warnings: [String]) {
            self.configPath = configPath
            self.fileExists = fileExists
            self.settings = settings
            self.warnings = warnings
        }
    }

    /// The effective settings, without reading a token file or checking the base URL (so a
    /// broken configuration can be looked at). Throws only when the config file cannot be read
    /// or parsed.
    public static func effective(_ sources: Sources) throws(BackendError) -> Effective {
        let configPath = sources.configPath ?? defaultConfigPath(environment: sources.environment)
        var warnings: [String] = []
        var file: [String: (value: String, line: Int)] = [:]
        for entry in try fileEntries(configPath, warnings: &warnings) { file[entry.key] = (entry.value, entry.line) }
        func fromFile(_ key: String) -> Setting {
            guard let found = file[key] else { return Setting(key: key, value: nil, origin: .notSet) }
            return Setting(key: key, value: found.value, origin: .file(path: configPath, line: found.line))
        }
        let environment = sources.environment
        let baseURL: Setting
        if let flag = sources.baseURL {
            baseURL = Setting(key: "base_url", value: flag, origin: .flag("--base-url"))
        } else if let value = environment["ALICIA_BASE_URL"], !value.isEmpty {
            baseURL = Setting(key: "base_url", value: value, origin: .environment("ALICIA_BASE_URL"))
        } else {
            baseURL = fromFile("base_url")
        }
        // The token's own precedence (`resolve`): --token, --token-file, ALICIA_TOKEN, token,
        // token_file.
        var token: Setting
        var tokenFile: Setting
        if let flag = sources.token {
            token = Setting(key: "token", value: flag, origin: .flag("--token"))
            tokenFile = sources.tokenFile.map { Setting(key: "token_file", value: $0, origin: .flag("--token-file")) } ?? fromFile("token_file")
        } else if let path = sources.tokenFile {
            token = Setting(key: "token", value: nil, origin: .notSet)
            tokenFile = Setting(key: "token_file", value: path, origin: .flag("--token-file"))
        } else if let value = environment["ALICIA_TOKEN"], !value.isEmpty {
            token = Setting(key: "token", value: value, origin: .environment("ALICIA_TOKEN"))
            tokenFile = fromFile("token_file")
        } else {
            token = fromFile("token")
            tokenFile = fromFile("token_file")
        }
        if token.value?.isEmpty == true { token.value = nil }
        if tokenFile.value?.isEmpty == true { tokenFile.value = nil }
        // Every other key `config set` takes is read from the file alone.
        let rest = ConfigFile.keys.subtracting(["base_url", "token", "token_file"]).sorted().map(fromFile)
        return Effective(configPath: configPath, fileExists: access(configPath, F_OK) == 0,
                         settings: [baseURL, token, tokenFile] + rest, warnings: warnings)
    }
}
