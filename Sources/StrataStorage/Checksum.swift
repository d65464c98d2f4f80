/// A fast non-cryptographic 64-bit checksum over bytes, used for block and meta-slot
/// integrity (corruption and torn-write detection, not tamper-proofing: encrypted files add HMACs).
/// Four independent lanes of multiply-rotate over 8-byte words, then a final avalanche.
@inline(__always) private func rotl(_ x: UInt64, _ r: UInt64) -> UInt64 { (x << r) | (x >> (64 &- r)) }

package enum Checksum {
    static let p1: UInt64 = 0x9E37_79B1_85EB_CA87
    static let p2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    static let p3: UInt64 = 0x1656_67B1_9E37_79F9

    /// Checksum of `count` bytes at `base`.
    package static func hash(_ base: UnsafeRawPointer, _ count: Int, seed: UInt64 = 0) -> UInt64 {
        var a = seed &+ p1, b = seed &+ p2, c = seed &+ p3, d = seed ^ p1
        var i = 0
        while i + 32 <= count {
            a = rotl((a ^ base.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* p2, 31)
            b = rotl((b ^ base.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self)) &* p2, 31)
            c = rotl((c ^ base.loadUnaligned(fromByteOffset: i + 16, as: UInt64.self)) &* p2, 31)
            d = rotl((d ^ base.loadUnaligned(fromByteOffset: i + 24, as: UInt64.self)) &* p2, 31)
            i += 32
        }
        var h = rotl(a, 1) &+ rotl(b, 7) &+ rotl(c, 12) &+ rotl(d, 18) &+ UInt64(count)
        while i + 8 <= count {
            h = rotl(h ^ (base.loadUnaligned(fromByteOffset: i, as: UInt64.self) &* p2), 27) &* p1 &+ p3
            i += 8
        }
        while i < count {
            h = rotl(h ^ (UInt64(base.load(fromByteOffset: i, as: UInt8.self)) &* p1), 11) &* p2
            i += 1
        }
        h ^= h >> 33; h = h &* p2; h ^= h >> 29; h = h &* p3; h ^= h >> 32
        return h
    }

    package static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        guard let base = bytes.baseAddress else { return hash(UnsafeRawPointer(bitPattern: 8)!, 0, seed: seed) }
        return hash(base, bytes.count, seed: seed)
    }

    package static func hash(_ bytes: [UInt8], seed: UInt64 = 0) -> UInt64 {
        bytes.withUnsafeBytes { hash($0, seed: seed) }
    }
}
