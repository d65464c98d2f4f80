/// An order-dependent fingerprint of values read by a workload (FNV-1a, 64-bit).
///
/// Engines fold what they read into a checksum so the reads cannot be optimized away and so the
/// runner can compare the engines' answers. Both engines must combine the same values in the
/// same order (the order of the ids they were given).
package struct BenchChecksum: Sendable, Hashable, CustomStringConvertible {
    /// How many values were combined.
    package private(set) var count: Int = 0
    /// The running hash.
    package private(set) var hash: UInt64 = 0xCBF2_9CE4_8422_2325

    /// An empty checksum.
    package init() {}

    /// Folds in one looked-up object: its `name` (UTF-8 bytes) and `score` (bit pattern).
    package mutating func combine(name: String, score: Double) {
        var name = name
        name.withUTF8 { bytes in
            for byte in bytes { mix(byte) }
        }
        mix(0xFF)  // separator; never a byte of valid UTF-8
        combine(score.bitPattern)
        count += 1
    }

    /// Folds in a looked-up object whose name is available as raw UTF-8 bytes.
    package mutating func combine(nameUTF8 bytes: UnsafeBufferPointer<UInt8>, score: Double) {
        for byte in bytes { mix(byte) }
        mix(0xFF)
        combine(score.bitPattern)
        count += 1
    }

    /// Folds in a marker for a key that was not found.
    package mutating func combineMissing() {
        combine(0xDEAD_BEEF_DEAD_BEEF)
        count += 1
    }

    private mutating func combine(_ value: UInt64) {
        var value = value
        for _ in 0..<8 {
            mix(UInt8(truncatingIfNeeded: value))
            value >>= 8
        }
    }

    @inline(__always)
    private mutating func mix(_ byte: UInt8) {
        hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }

    /// `count=… hash=…` in hexadecimal.
    package var description: String {
        "count=\(count) hash=0x" + String(hash, radix: 16)
    }
}
