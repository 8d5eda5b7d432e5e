#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaBackend
import AliciaSession
import AliciaLocks
import AliciaLibrary
import AliciaHost

/// What the Studio remembers between runs: the volume and the speed last set in it, in
/// `$XDG_STATE_HOME/alicia-player/state` (default `~/.local/state/alicia-player/state`), as
/// `key = value` lines. Only the interactive Studio reads and writes it: `play` in a script, the
/// plain Studio and the other commands stay at 100 % and 1× unless told otherwise.
package struct ListenerState: Equatable {
    /// Percent on the mixer's scale (see `VolumeScale`).
    package var volume: Double?
    package var speed: Double?

    /// The file's path for this environment.
    /// The path for this process's environment.
    package static func path() -> String {
        var environment: [String: String] = [:]
        for key in ["XDG_STATE_HOME", "HOME"] {
            if let value = getenv(key) { environment[key] = String(cString: value) }
        }
        return path(environment: environment)
    }

    package static func path(environment: [String: String]) -> String {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return state + "/alicia-player/state"
        }
        return (environment["HOME"] ?? "") + "/.local/state/alicia-player/state"
    }

    /// The state in `text`; what is missing, unreadable or out of range is left out.
    package static func parse(_ text: String) -> ListenerState {
        var state = ListenerState()
        guard let values = try? ConfigFile.parse(text) else { return state }
        if let volume = values["volume"].flatMap(Double.init), VolumeScale.percentRange.contains(volume) { state.volume = volume }
        if let speed = values["speed"].flatMap(Double.init), Player.speedRange.contains(speed) { state.speed = speed }
        return state
    }

    /// The file's text.
    package func rendered() -> String {
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
    package static func load(from path: String) -> ListenerState {
        parse(AtomicFile.text(path, limit: 64 * 1024) ?? "")
    }

    /// Writes the state to `path` atomically (`AtomicFile`), making the directories (mode 0700) as
    /// needed, so a crash or a second Studio never leaves half a file. Returns why not, if it could not.
    package func save(to path: String) -> String? {
        guard case .failure(let failure) = AtomicFile.write(Array(rendered().utf8), to: path, makeDirectories: true) else { return nil }
        return failure.message
    }
}
