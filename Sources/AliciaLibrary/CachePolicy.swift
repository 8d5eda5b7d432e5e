import AliciaAudio
import AliciaBackend
import AliciaCache
import AliciaSession
import AliciaLocks

/// The download cache's bound and what counts as heard, as every command that fills or trims the
/// cache reads them (`cache`, `download`, auto-download).
package enum CachePolicy {
    /// The bound when none is set: 2 GiB, a few hours of 48 kHz stereo WAV.
    package static let defaultMaximumSize: Int64 = 2 << 30

    /// The bound from the config file, or the default.
    package static func maximumSize() -> Int64 {
        ConfigurationLoader.fileValue("cache_max_size", environment: BackendSession.environment()).flatMap(ByteSize.parse)
            ?? defaultMaximumSize
    }

    /// The position keys (labels) of the episodes heard to the end.
    package static func playedKeys() -> Set<String> {
        guard let directory = PositionStore.defaultDirectory() else { return [] }
        return Set(PositionStore(directory: directory).all.filter { $0.value.played }.map(\.key))
    }
}
