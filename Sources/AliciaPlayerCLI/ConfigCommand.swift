#if canImport(Glibc)
import Glibc
#endif
import AliciaBackend
import AliciaTerminal
import AliciaLocks
import AliciaLibrary
import AliciaHost

/// `alicia-player config`: the effective configuration and where each value came from (the token
/// as `***`); `config --path`: the file's path; `config set KEY VALUE`: one key of the file edited
/// (the file made, mode 0600, when there is none); `config get KEY [--reveal]`: one value.
struct ConfigCommand {
    var action: ConfigAction
    var backend: BackendOptions

    func run() -> Int32 {
        let environment = BackendSession.environment()
        let sources = ConfigurationLoader.Sources(baseURL: backend.baseURL, token: backend.token, tokenFile: backend.tokenFile,
                                                  environment: environment)
        switch action {
        case .path:
            Console.out(ConfigurationLoader.defaultConfigPath(environment: environment) + "\n")
            return ExitCode.success
        case .show:
            do {
                let effective = try ConfigurationLoader.effective(sources)
                for warning in effective.warnings { Console.fail("warning: " + warning) }
                Console.out(Self.render(effective))
                return ExitCode.success
            } catch {
                Console.fail(error.message)
                return ExitCode.failure
            }
        case .get(let key, let reveal):
            do {
                let effective = try ConfigurationLoader.effective(sources)
                guard let setting = effective.settings.first(where: { $0.key == key }), let value = setting.value else {
                    Console.fail("\(key) is not set" + (Self.defaults[key].map { " (the default: \($0))" } ?? ""))
                    return ExitCode.failure
                }
                guard setting.isSecret, reveal else {
                    Console.out((setting.isSecret ? "***" : value) + "\n")
                    return ExitCode.success
                }
                // The token itself goes only to a person at a terminal, never into a pipe, a file or a log.
                guard isatty(STDOUT_FILENO) == 1 else {
                    Console.fail("config get \(key) --reveal prints only to a terminal (standard output is not one)")
                    return ExitCode.failure
                }
                Console.out(value + "\n")
                return ExitCode.success
            } catch {
                Console.fail(error.message)
                return ExitCode.failure
            }
        case .set(let key, let value):
            return set(key, value, path: ConfigurationLoader.defaultConfigPath(environment: environment))
        }
    }

    /// What a key not set means.
    static let defaults = ["cache_max_size": "2G", "auto_download": "0", "report": "on", "ca_file": "the system's certificates",
                           "keep": "every download", "delete_played_after": "never"]

    /// One line a setting: key, value (`***` for the token), where it came from.
    static func render(_ effective: ConfigurationLoader.Effective) -> String {
        let token = effective.settings.first { $0.key == "token" }
        let rows: [(String, String, String)] = effective.settings.map { setting in
            guard let value = setting.value else {
                return (setting.key, Self.defaults[setting.key].map { "(not set: \($0))" } ?? "(not set)", "")
            }
            var origin: String
            switch setting.origin {
            case .flag(let flag): origin = "from " + flag
            case .environment(let name): origin = "from $" + name
            case .file(let path, let line): origin = "from \(path):\(line)"
            case .notSet: origin = ""
            }
            if setting.key == "token_file", token?.value != nil { origin += " (not read: the token above wins)" }
            return (setting.key, setting.isSecret ? "***" : value, origin)
        }
        let keyWidth = max("config file".count, rows.map { $0.0.count }.max() ?? 0)
        let valueWidth = min(40, rows.map { DisplayWidth.of($0.1) }.max() ?? 0)
        var out = "config file".padding(keyWidth) + "  " + effective.configPath + (effective.fileExists ? "" : " (none yet)") + "\n"
        for (key, value, origin) in rows {
            let line = key.padding(keyWidth) + "  " + (origin.isEmpty ? value : DisplayWidth.pad(value, to: max(valueWidth, DisplayWidth.of(value))) + "  " + origin)
            out += line + "\n"
        }
        return out
    }

    private func set(_ key: String, _ value: String, path: String) -> Int32 {
        var value = value
        // `config set token -`: the value from standard input, so it is not in the process list.
        if value == "-" {
            value = readLine(strippingNewline: true).map { $0.trimmingWhitespace() } ?? ""
        }
        let text: String
        switch AtomicFile.read(path) {
        case .success(let bytes): text = String(decoding: bytes, as: UTF8.self)
        case .failure(let failure) where failure.isMissing: text = ""
        case .failure(let failure):
            Console.fail(failure.message)
            return ExitCode.failure
        }
        let existingMode = AtomicFile.mode(of: path)
        let edited: String
        do {
            edited = try ConfigFile.setting(key, to: value, in: text)
        } catch {
            Console.fail("config set: " + error.message)
            return ExitCode.usage
        }
        // A file made here holds a secret sooner or later: 0600. One that exists keeps its mode.
        let mode = existingMode ?? 0o600
        if let failure = TextFile.write(edited, to: path, mode: mode) {
            Console.fail(failure)
            return ExitCode.failure
        }
        let known = ConfigFile.knownKey(key) ?? key
        Console.out("\(path): \(known) = \(known == "token" ? "***" : value)\n")
        if existingMode != nil, mode & 0o077 != 0, (try? ConfigFile.parse(edited))?["token"] != nil {
            Console.fail("warning: \(path) holds the backend's token but others can read it: chmod 600 \(path)")
        }
        return ExitCode.success
    }
}

extension String {
    /// Padded with spaces to `width` characters (ASCII keys).
    fileprivate func padding(_ width: Int) -> String {
        self + String(repeating: " ", count: max(0, width - count))
    }
}
