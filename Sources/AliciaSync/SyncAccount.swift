#if canImport(Glibc)
import Glibc
#endif
import AliciaJSON
import AliciaLocks

/// The listener's sync account: a gpodder.net-API server (gpodder.net itself, a self-hosted mygpo
/// or gpodder-fastapi-router, or Nextcloud's GPodder Sync app), the user, this machine's device id,
/// the password and the dialect the server was found to speak. Kept in one file,
/// `$XDG_CONFIG_HOME/alicia-player/sync.json`, mode 0600, written whole (temporary file, rename).
/// The password is in no description of it: `***` stands for it wherever the account is shown.
package struct SyncAccount: Codable, Equatable, Sendable, CustomStringConvertible {
    /// The server's base URL (http or https), with no user, password or trailing slash.
    package var server: String
    package var user: String
    package var device: String
    package var password: String
    package var dialect: SyncDialect

    package init(server: String, user: String, device: String, password: String, dialect: SyncDialect) {
        self.server = server
        self.user = user
        self.device = device
        self.password = password
        self.dialect = dialect
    }

    package var description: String { "\(user) at \(server), device \(device) (\(dialect.name)), password ***" }

    /// What a sync state belongs to: a new server, user or device starts from nothing.
    package var identity: String { "\(dialect.rawValue) \(server) \(user) \(device)" }

    /// What finds the account, the library database and the download cache: XDG_CONFIG_HOME,
    /// XDG_DATA_HOME, XDG_CACHE_HOME, HOME.
    package static func environment() -> [String: String] {
        var values: [String: String] = [:]
        for key in ["XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "HOME"] {
            if let value = getenv(key) { values[key] = String(cString: value) }
        }
        return values
    }

    /// `$XDG_CONFIG_HOME/alicia-player/sync.json`, or `~/.config/alicia-player/sync.json`.
    package static func defaultPath(environment: [String: String]) -> String? {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return config + "/alicia-player/sync.json" }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.config/alicia-player/sync.json"
    }

    /// The account at `path`: nil when there is no file (sync was never set up); an error naming
    /// the file when it cannot be read as an account.
    package static func load(from path: String) throws(SyncError) -> SyncAccount? {
        switch AtomicFile.read(path, limit: 64 * 1024) {
        case .failure(let failure):
            if failure.isMissing { return nil }
            throw SyncError("cannot read the sync account \(failure.message)")
        case .success(let bytes):
            do {
                return try JSON.decode(SyncAccount.self, from: bytes)
            } catch {
                throw SyncError("the sync account \(path) is not one (set it up again: alicia-player sync setup URL --user NAME)")
            }
        }
    }

    /// Writes the account to `path` (0600, its directory made 0700 when missing).
    package func save(to path: String) throws(SyncError) {
        let bytes: [UInt8]
        do {
            bytes = try JSON.encode(self, layout: .indented)
        } catch {
            throw SyncError("the sync account could not be encoded")
        }
        if case .failure(let failure) = AtomicFile.write(bytes + [10], to: path, mode: 0o600, makeDirectories: true) {
            throw SyncError("cannot write the sync account \(failure.message)")
        }
    }

    /// The device id when none is given: this machine's host name, in the characters device ids
    /// may hold, after `alicia-player-` (so the phone's list of devices says what it is).
    package static func defaultDevice() -> String {
        var name = [CChar](repeating: 0, count: 256)
        let host = gethostname(&name, name.count) == 0
            ? String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "desktop"
        let kept = host.lowercased().map { $0.isLetter && $0.isASCII || $0.isNumber && $0.isASCII || $0 == "-" ? $0 : "-" }
        return "alicia-player-" + String(kept.prefix(40))
    }

    /// `text` as a server's base URL: http(s), no credentials in it, no trailing slash.
    package static func serverURL(_ text: String) throws(SyncError) -> String {
        var url = text.trimmingSpaces.description
        // Before anything echoes the text: a password typed into the URL is never said back.
        guard !url.contains("@") else {
            throw SyncError("put no user or password in the sync server's URL: --user NAME, and the password when asked")
        }
        let lower = url.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else {
            throw SyncError("the sync server must be an http:// or https:// URL, not '\(text)'")
        }
        let afterScheme = url[url.index(url.firstIndex(of: ":")!, offsetBy: 3)...]
        let authority = afterScheme.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !authority.isEmpty, !url.contains("?"), !url.contains("#") else {
            throw SyncError("the sync server's URL '\(text)' has no host, or has a query: give its base, e.g. https://gpodder.example.org")
        }
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }
}

/// Which API a sync server speaks.
package enum SyncDialect: String, Codable, Equatable, Sendable {
    /// gpodder.net's API 2 (gpodder.net, mygpo, gpodder-fastapi-router, opodsync): devices, and
    /// `since` as the server's own timestamp.
    case gpodderNet = "gpodder.net"
    /// Nextcloud's GPodder Sync app (`/index.php/apps/gpoddersync/…`): no devices; `since` in UNIX
    /// seconds.
    case nextcloud

    package var name: String {
        switch self {
        case .gpodderNet: return "gpodder.net API"
        case .nextcloud: return "Nextcloud GPodder Sync"
        }
    }
}

/// What went wrong in a sync, said in one line (never with the password or a token in it).
package struct SyncError: Error, Equatable, Sendable {
    package var message: String
    /// The server answered 401: the user or password is wrong (trying again will not help).
    package var unauthorized = false
    /// Another pass holds the machine's sync lock: nothing failed.
    package var busy = false

    package init(_ message: String, unauthorized: Bool = false, busy: Bool = false) {
        self.message = message
        self.unauthorized = unauthorized
        self.busy = busy
    }
}
