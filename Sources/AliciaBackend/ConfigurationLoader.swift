#if canImport(Glibc)
import Glibc
#endif
import AliciaLocks

/// Finds the backend's base URL and token, in order of precedence: flags, then
/// the environment (`ALICIA_BASE_URL`, `ALICIA_TOKEN`), then the config file
/// (`$XDG_CONFIG_HOME/alicia/config`, by default `~/.config/alicia/config`).
public enum ConfigurationLoader {
    public struct Sources: Sendable, Equatable {
        public var baseURL: String?
        public var token: String?
        public var tokenFile: String?
        public var environment: [String: String]
        /// Nil: the default path from the environment.
        public var configPath: String?

        public init(baseURL: String? = nil, token: String? = nil, tokenFile: String? = nil,
                    environment: [String: String] = [:], configPath: String? = nil) {
            self.baseURL = baseURL
            self.token = token
            self.tokenFile = tokenFile
            self.environment = environment
            self.configPath = configPath
        }
    }

    public struct Result: Sendable, Equatable {
        public var configuration: BackendConfiguration
        /// Things worth telling the user (a config file others can read).
        public var warnings: [String]
    }

    public static func defaultConfigPath(environment: [String: String]) -> String {
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            return xdg + "/alicia/config"
        }
        return (environment["HOME"] ?? "") + "/.config/alicia/config"
    }

    public static func resolve(_ sources: Sources) throws(BackendError) -> Result {
        var warnings: [String] = []
        let configuration = try resolve(sources, warnings: &warnings)
        return Result(configuration: configuration, warnings: warnings)
    }

    /// The config file's lines (none when there is no file), with a warning for each unknown key and
    /// for a token others can read.
    static func fileEntries(_ configPath: String, warnings: inout [String]) throws(BackendError) -> [ConfigFile.Entry] {
        guard let text = try FileText.readIfPresent(configPath) else { return [] }
        let entries: [ConfigFile.Entry]
        do {
            entries = try ConfigFile.entries(text)
        } catch {
            throw .unreadableFile(path: configPath, reason: error.message)
        }
        for entry in entries where !ConfigFile.keys.contains(entry.key) {
            warnings.append("\(configPath):\(entry.line): " + ConfigFile.unknownKeyMessage(entry.key))
        }
        if entries.contains(where: { $0.key == "token" }), let warning = FileText.exposureWarning(configPath) { warnings.append(warning) }
        return entries
    }

    /// As `resolve(_:)`, with the warnings added to `warnings` also when it throws (a misspelt
    /// `base_url` is what makes it throw `notConfigured`).
    public static func resolve(_ sources: Sources, warnings: inout [String]) throws(BackendError) -> BackendConfiguration {
        let configPath = sources.configPath ?? defaultConfigPath(environment: sources.environment)
        var file: [String: String] = [:]
        for entry in try fileEntries(configPath, warnings: &warnings) { file[entry.key] = entry.value }
        let environment = sources.environment
        guard let base = sources.baseURL ?? nonEmpty(environment["ALICIA_BASE_URL"]) ?? file["base_url"] else {
            throw .notConfigured(configPath: configPath)
        }
        var token = sources.token
        if token == nil, let path = sources.tokenFile {
            token = try readToken(path, warnings: &warnings)
        }
        if token == nil { token = nonEmpty(environment["ALICIA_TOKEN"]) }
        if token == nil { token = file["token"] }
        if token == nil, let path = file["token_file"] {
            token = try readToken(path, warnings: &warnings)
        }
        return try BackendConfiguration(baseURL: base, token: token)
    }

    private static func readToken(_ path: String, warnings: inout [String]) throws(BackendError) -> String {
        guard let text = try FileText.readIfPresent(path) else {
            throw .unreadableFile(path: path, reason: "no such file")
        }
        if let warning = FileText.exposureWarning(path) { warnings.append(warning) }
        let token = text.split(whereSeparator: \.isNewline).first.map { String($0).trimmingSpaces() } ?? ""
        guard !token.isEmpty else { throw .unreadableFile(path: path, reason: "the file is empty") }
        return token
    }

    private static func nonEmpty(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }
}

/// The config file: `key = value` lines; `#` or `;` starts a comment line; values
/// may be quoted. Keys are case-insensitive and `-` equals `_` (`base-url`, `base_url`).
public enum ConfigFile {
    public struct ParseError: Error, Equatable, Sendable {
        public let message: String
    }

    /// The keys alicia-player reads, in the order messages name them; any other gets a warning
    /// naming its file and line.
    public static let keyOrder = ["base_url", "token", "token_file", "cache_max_size", "auto_download", "accessible", "hook",
                                  "hook_time_limit", "report", "ca_file", "keep", "delete_played_after"]
    public static let keys: Set<String> = Set(keyOrder)

    /// A `key = value` line: the key normalised (lower case, `_` for `-`), the line's number.
    public struct Entry: Equatable, Sendable {
        public var key: String
        public var value: String
        public var line: Int
    }

    /// The values by key (a later line wins).
    public static func parse(_ text: String) throws(ParseError) -> [String: String] {
        var values: [String: String] = [:]
        for entry in try entries(text) { values[entry.key] = entry.value }
        return values
    }

    /// "unknown key 'tokn' (did you mean 'token'?)": the nearest known key when one is near.
    public static func unknownKeyMessage(_ key: String) -> String {
        let nearest = keys.map { ($0, editDistance($0, key)) }.min { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }
        if let (known, distance) = nearest, distance <= 2 {
            return "unknown key '\(key)' (did you mean '\(known)'?)"
        }
        return "unknown key '\(key)' (the keys are \(keyOrder.dropLast().joined(separator: ", ")) and \(keyOrder.last ?? ""))"
    }

    /// Levenshtein distance over characters.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }

    public static func entries(_ text: String) throws(ParseError) -> [Entry] {
        var values: [Entry] = []
        for (number, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = String(raw).trimmingSpaces()
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            guard let equals = line.firstIndex(of: "=") else {
                throw ParseError(message: "line \(number + 1): expected `key = value`")
            }
            let key = String(line[..<equals]).trimmingSpaces().lowercased().replacingOccurrences(of: "-", with: "_")
            var value = String(line[line.index(after: equals)...]).trimmingSpaces()
            if value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first {
                value = String(value.dropFirst().dropLast())
            }
            guard !key.isEmpty else { throw ParseError(message: "line \(number + 1): a value without a key") }
            values.append(Entry(key: key, value: value, line: number + 1))
        }
        return values
    }
}

extension String {
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        self.replacing(target, with: replacement)
    }
}

extension ConfigurationLoader {
    /// The config file's path and its lines of `keys`, in order (none when there is no file or it
    /// cannot be read): for keys that may come more than once (`hook`).
    public static func fileEntries(_ keys: Set<String>, environment: [String: String]) -> (path: String, entries: [ConfigFile.Entry]) {
        let path = defaultConfigPath(environment: environment)
        guard let text = try? FileText.readIfPresent(path), let entries = try? ConfigFile.entries(text) else { return (path, []) }
        return (path, entries.filter { keys.contains($0.key) })
    }

    /// The value of `key` in the config file (nil when it is not set, or there is no file).
    public static func fileValue(_ key: String, environment: [String: String]) -> String? {
        let path = defaultConfigPath(environment: environment)
        guard let text = try? FileText.readIfPresent(path), let values = try? ConfigFile.parse(text) else { return nil }
        return values[key]
    }

    /// Sets `key = value` in the config file (made, mode 0600, with its directory, when missing),
    /// replaced atomically; the file's mode is kept. Returns the path, or throws why not.
    public static func setFileValue(_ key: String, to value: String, environment: [String: String]) throws(BackendError) -> String {
        let path = defaultConfigPath(environment: environment)
        let text = try FileText.readIfPresent(path) ?? ""
        var directory = ""
        for part in path.split(separator: "/").dropLast() {
            directory += "/" + part
            if mkdir(directory, 0o700) != 0 && errno != EEXIST {
                throw .unreadableFile(path: directory, reason: String(cString: strerror(errno)))
            }
        }
        let mode = AtomicFile.mode(of: path) ?? 0o600
        let edited: String
        do {
            edited = try ConfigFile.setting(key, to: value, in: text)
        } catch {
            throw .unreadableFile(path: path, reason: error.message)
        }
        if case .failure(let failure) = AtomicFile.write(Array(edited.utf8), to: path, mode: mode) {
            throw .unreadableFile(path: path, reason: "cannot write it: " + failure.reason)
        }
        return path
    }
}

/// Small file reads without Foundation.
enum FileText {
    /// The file's text, or nil if there is no such file.
    static func readIfPresent(_ path: String) throws(BackendError) -> String? {
        switch AtomicFile.read(path, limit: 1 << 20) {
        case .success(let bytes): return String(decoding: bytes, as: UTF8.self)
        case .failure(let failure) where failure.isMissing: return nil
        case .failure(let failure) where failure.errno == EFBIG: throw .unreadableFile(path: path, reason: "larger than 1 MiB")
        case .failure(let failure): throw .unreadableFile(path: path, reason: failure.reason)
        }
    }

    /// A warning when group or others may read a file that holds a secret.
    static func exposureWarning(_ path: String) -> String? {
        guard let mode = AtomicFile.mode(of: path), mode & 0o077 != 0 else { return nil }
        return "\(path) holds the backend's token but others can read it: chmod 600 \(path)"
    }
}
