/// The statistics the report uses.
package enum BenchStatistics {
    /// The median of `values`: the middle value, or the mean of the two middle values for an
    /// even count. Nil for an empty array.
    package static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The median of integer `values` (for an even count, the mean of the middle two, rounded
    /// down). Nil for an empty array.
    package static func median(_ values: [Int]) -> Int? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// `numerator / denominator`, nil when the denominator is not positive.
    package static func ratio(_ numerator: Double, _ denominator: Double) -> Double? {
        denominator > 0 ? numerator / denominator : nil
    }
}
