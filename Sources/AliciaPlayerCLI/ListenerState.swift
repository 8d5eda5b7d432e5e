#if canImport(Glibc)
import Glibc
#endif
import AliciaBackend
import AliciaSession

/// What the Studio remembers between runs: the volume and the speed last set in it, in
/// `$XDG_STATE_HOME/alicia-player/state` (default `~/.local/state/alicia-player/state`), as
/// `key = value` lines. Only the interactive Studio reads and writes it: `play` in a script, the
/// plain Studio and the other commands stay at 100 % and 1× unless told otherwise.
struct ListenerState: Equatable {
    /// Percent on the mixer's scale (see `VolumeScale`).
    var volume: Double?
    var speed: Double?

    /// The file's path for this environment.
    static func path(environment: [String: String]) -> String {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return state + "/alicia-player/state"
        }
        return (environment["HOME"] ?? "") + "/.local/state/alicia-player/state"
    }

    /// The state in `text`; what is missing, unreadable or out of range is left out.
    static func parse(_ text: String) -> ListenerState {
        var state = ListenerState()
        guard let values = try? ConfigFile.parse(text) else { return state }
        if let volume = values["volume"].flatMap(Double.init), VolumeScale.percentRange.contains(volume) { state.volume = volume }
        if let speed = values["speed"].flatMap(Double.init), (0.5...3).contains(speed) { state.speed = speed }
        return state
    }

    /// The file's text.
    func rendered() -> String {
        var text = "# alicia-player: what the Studio remembers between runs\n"
        if let volume { text += "volume = \(Self.number(volume))\n" }
        if let speed { text += "speed = \(Self.number(speed))\n" }
        return text
    }

    /// `80`, `1.25`: whole numbers without a fraction.
    private static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// The state at `path`; empty when there is no file or it cannot be read.
    static func load(from path: String) -> ListenerState {
        guard let file = fopen(path, "r") else { return ListenerState() }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1024)
        while bytes.count < 64 * 1024 {
            let n = fread(&chunk, 1, chunk.count, file)
            if n > 0 { bytes += chunk[0..<n] }
            if n < chunk.count { break }
        }
        return parse(String(decoding: bytes, as: UTF8.self))
    }

    /// Writes the state to `path` atomically: a temporary file beside it, flushed to disk, renamed
    /// over the old one, so a crash or a second Studio never leaves half a file. Makes the
    /// directories (mode 0700) as needed. Returns why not, if it could not.
    func save(to path: String) -> String? {
        guard let slash = path.lastIndex(of: "/") else { return "\(path): not an absolute path" }
        let directory = String(path[..<slash])
        if let failure = Self.makeDirectories(directory) { return failure }
        let temporary = "\(path).tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return "\(temporary): \(String(cString: strerror(errno)))" }
        var text = rendered()
        let written = text.withUTF8 { bytes in write(fd, bytes.baseAddress, bytes.count) == bytes.count }
        let synced = fsync(fd) == 0
        let failure = errno
        close(fd)
        guard written, synced, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(written && synced ? errno : failure))
            unlink(temporary)
            return "\(path): \(reason)"
        }
        return nil
    }

    /// `mkdir -p` with mode 0700.
    private static func makeDirectories(_ directory: String) -> String? {
        var made = ""
        for part in directory.split(separator: "/") {
            made += "/" + part
            if mkdir(made, 0o700) != 0 && errno != EEXIST { return "\(made): \(String(cString: strerror(errno)))" }
        }
        return nil
    }
}
