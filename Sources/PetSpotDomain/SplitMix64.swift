/// SplitMix64: a tiny, fast generator with a fixed algorithm, so seeded demo data and the simulated
/// iPhone's draws are identical on every machine and Swift version (unlike
/// `SystemRandomNumberGenerator`).
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        self.state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A double in [0, 1) from the top 53 bits (stable across platforms, unlike `Double.random(in:using:)`).
    public mutating func unit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// An index in `0..<count` (count > 0).
    public mutating func index(_ count: Int) -> Int {
        Int(next() % UInt64(count))
    }

    public mutating func pick<T>(_ items: [T]) -> T {
        items[index(items.count)]
    }
}
