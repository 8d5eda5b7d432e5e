#if canImport(Glibc)
import Glibc
#endif
import AliciaLocks

/// The small text files the commands keep (the completion cache), through `AtomicFile`.
package enum TextFile {
    /// Writes `text` to `path` (making missing directories 0700) with `mode`. Returns why not, if
    /// it could not.
    package static func write(_ text: String, to path: String, mode: mode_t) -> String? {
        guard case .failure(let failure) = AtomicFile.write(Array(text.utf8), to: path, mode: mode, makeDirectories: true) else { return nil }
        return failure.message
    }

    /// The file's text; nil when it does not exist or cannot be read.
    package static func read(_ path: String) -> String? { AtomicFile.text(path) }
}
