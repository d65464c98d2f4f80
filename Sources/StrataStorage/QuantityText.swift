import Foundation

/// The one text form of byte sizes and counts, shared by the storage layer's reports, the
/// tooling (browser and CLI) and the benchmark, so every screen and table scales alike.
package enum QuantityText {
    /// An integer with "," between groups of three digits (`1,234,567`), independent of locale.
    package static func grouped<T: BinaryInteger>(_ value: T) -> String {
        let digits = String(value.magnitude)
        var result = ""
        for (offset, character) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { result.append(",") }
            result.append(character)
        }
        return (value < 0 ? "-" : "") + result
    }

    /// A byte size in powers of 1024: whole bytes below 1 KiB, else one decimal below 100 and
    /// none from 100 on (`512 B`, `4.0 KiB`, `12.3 MiB`, `150 GiB`). `units[0]` names bytes;
    /// `separator` stands between the number and the unit.
    package static func bytes<T: BinaryInteger>(_ value: T, units: [String] = ["B", "KiB", "MiB", "GiB", "TiB"],
                                                 separator: String = " ") -> String {
        let sign = value < 0 ? "-" : ""
        let magnitude = Double(value.magnitude)
        if magnitude < 1024 { return "\(sign)\(value.magnitude)\(separator)\(units[0])" }
        var scaled = magnitude / 1024
        var unit = 1
        while scaled >= 1024, unit < units.count - 1 { scaled /= 1024; unit += 1 }
        return sign + String(format: scaled >= 100 ? "%.0f" : "%.1f", scaled) + separator + units[unit]
    }
}
