/// A tiny deterministic PRNG (Marsaglia's xorshift64, as xorshift64*), so fixtures are the same
/// bytes on every run and every machine.
public struct Xorshift64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A seed of 0 would stay 0 forever; it is replaced by a fixed odd constant.
    public init(seed: UInt64) {
        state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed
    }

    public mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }
}
