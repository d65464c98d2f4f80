import StrataStorage

/// The benchmark's seeded generator: the project's one SplitMix64, so the data it generates is
/// identical on every run and every toolchain.
package typealias BenchRandom = SplitMix64
