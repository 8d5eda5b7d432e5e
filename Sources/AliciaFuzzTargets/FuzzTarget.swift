/// One entry point of hostile input: bytes in, no crash, no hang, memory within the parser's own
/// limits. `alicia-fuzz` hands these to libFuzzer (`scripts/fuzz`) or replays files through them,
/// and the corpus-replay test feeds every seed in `Tests/Fuzz/<name>/` to them without sanitizers.
///
/// A target checks properties as well as surviving: a `precondition` that fails is a bug found.
package struct FuzzTarget: Sendable {
    /// Also the corpus directory's name.
    package let name: String
    /// What it feeds, in one line (`alicia-fuzz --list`).
    package let about: String
    package let run: @Sendable ([UInt8]) -> Void

    package static let all: [FuzzTarget] = [
        eventStream, config, queueFile, script, httpHeaders, libraryJSON, controlJSON, audioHeader, feed, opml,
    ]

    package static func named(_ name: String) -> FuzzTarget? {
        all.first { $0.name == name }
    }
}

extension Collection<UInt8> {
    /// The bytes as text the way the readers take files: invalid UTF-8 repaired, not refused.
    var text: String { String(decoding: self, as: UTF8.self) }

    /// Newline-separated pieces (at most `limit`), for targets that take a few inputs at once.
    func pieces(_ limit: Int) -> [SubSequence] {
        Array(split(separator: UInt8(ascii: "\n"), maxSplits: limit - 1, omittingEmptySubsequences: false).prefix(limit))
    }
}
