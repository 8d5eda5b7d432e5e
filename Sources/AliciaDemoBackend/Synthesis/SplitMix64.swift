/// Stateless hashing for the demo's "random" choices (melodies, voice notes, injected failures), so
/// the n-th choice is a pure function of `n` and a seed: the same on every run, at any offset.
enum SplitMix64 {
    /// SplitMix64's finaliser: a bijection of 64-bit values with good avalanche.
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in 0..<1 determined by `seed` and `index`.
    static func unit(_ seed: UInt64, _ index: Int) -> Double {
        let bits = mix(mix(seed) ^ UInt64(bitPattern: Int64(index)))
        return Double(bits >> 11) / Double(UInt64(1) << 53)
    }
}
