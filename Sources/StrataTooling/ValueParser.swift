import Foundation
import StrataObjects

/// A value that could not be read from text (an edit prompt, a CSV cell, a JSON field).
package struct InputError: Error, Hashable, Sendable, CustomStringConvertible {
    package var message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}

/// Reads typed text into engine values by a property's type: the one parser of `strata import`
/// (JSON and CSV) and the browser's edit prompt. Text is refused rather than changed: numbers
/// beyond a Float/Double (`1e400`) or that underflow to zero, decimals with more significant digits
/// than a Decimal128 holds (34) or beyond its range (`1e7000`), dates that do not exist
/// (`2020-02-30`, hour 25) or lie outside what a date stores (``Timestamp/min`` ... ``Timestamp/max``).
package enum ValueParser {
    /// Significant digits a Decimal128 holds.
    package static let decimalDigits = 34

    /// How binary data is written as text.
    package enum DataEncoding: Sendable { case hex, base64 }

    /// Parses the text of one scalar of `type` (not null: the caller decides what null is).
    /// Links are not handled here (the caller resolves them).
    package static func scalar(_ text: String, type: PropertyType, what: String, data: DataEncoding) throws -> Value {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        func invalid(_ expected: String) -> InputError {
            InputError("'\(trimmed.count > 40 ? String(trimmed.prefix(40)) + "…" : trimmed)' is not \(expected) for \(what)")
        }
        switch type {
        case .bool:
            switch trimmed.lowercased() {
            case "true", "yes", "1": return .bool(true)
            case "false", "no", "0": return .bool(false)
            default: throw invalid("a Bool (true or false)")
            }
        case .int:
            guard let value = Int64(trimmed) else {
                if Double(trimmed) != nil { throw invalid("an Int (a whole number within ±9.2e18)") }
                throw invalid("an Int")
            }
            return .int(value)
        case .float:
            guard let parsed = parseFloating(trimmed).map(Float.init) ?? Float(trimmed) else { throw invalid("a Float") }
            let value = Float(trimmed) ?? parsed
            try checkFloating(trimmed, isInfinite: value.isInfinite, isZero: value == 0, typeName: "a Float", what: what)
            return .float(value)
        case .double:
            guard let value = parseFloating(trimmed) else { throw invalid("a Double") }
            try checkFloating(trimmed, isInfinite: value.isInfinite, isZero: value == 0, typeName: "a Double", what: what)
            return .double(value)
        case .decimal128:
            guard !trimmed.isEmpty, let value = try? Decimal128(string: trimmed) else { throw invalid("a Decimal128") }
            let mantissa = trimmed.prefix { $0 != "e" && $0 != "E" }
            let digits = mantissa.filter(\.isNumber).drop { $0 == "0" }
            if digits.count > decimalDigits {
                throw InputError("'\(trimmed.prefix(50))' has \(digits.count) significant digits for \(what); a Decimal128 holds \(decimalDigits) (round it first)")
            }
            // Beyond 10^6145 a decimal128 is infinite, below 10^-6176 zero: refused, not changed.
            try checkFloating(trimmed, isInfinite: value.isInfinite, isZero: value.isZero, typeName: "a Decimal128", what: what)
            return .decimal(value)
        case .string:
            guard text.utf8.count <= 16 << 20 else { throw InputError("\(what): a String is limited to 16 MB (this one is \(text.utf8.count) bytes)") }
            return .string(text)
        case .data:
            switch data {
            case .hex:
                guard let bytes = ValueConversion.bytes(hex: trimmed) else { throw invalid("Data (hex digits, two per byte)") }
                return .data(bytes)
            case .base64:
                guard let decoded = Data(base64Encoded: trimmed) else { throw invalid("Data (base64)") }
                return .data([UInt8](decoded))
            }
        case .date:
            do { return .date(try Timestamp(iso8601: trimmed)) } catch {
                let shown = trimmed.count > 40 ? String(trimmed.prefix(40)) + "…" : trimmed
                if error == .outOfRange { throw InputError("'\(shown)' is outside the dates Strata stores (\(TimestampError.rangeText)) for \(what)") }
                throw InputError("'\(shown)' is not a date for \(what): \(error)")
            }
        case .objectId:
            guard let id = try? ObjectId(string: trimmed.lowercased()) else { throw invalid("an ObjectId (24 hex digits)") }
            return .objectId(id)
        case .uuid:
            guard let uuid = UUID(uuidString: trimmed) else { throw invalid("a UUID") }
            return .uuid(uuid)
        case .mixed:
            return mixed(text)
        case .object, .linkingObjects:
            throw invalid("a value")
        }
    }

    /// Text typed for an `AnyRealmValue`: a number, `true`/`false`, or else a string.
    package static func mixed(_ text: String) -> Value {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let i = Int64(trimmed) { return .int(i) }
        if trimmed.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }), let d = Double(trimmed), d.isFinite { return .double(d) }
        if trimmed == "true" { return .bool(true) }
        if trimmed == "false" { return .bool(false) }
        return .string(text)
    }

    /// Refuses a number that became infinite without being written as one (`1e400`), or zero
    /// without being written as zero (`1e-400`).
    static func checkFloating(_ text: String, isInfinite: Bool, isZero: Bool, typeName: String, what: String) throws {
        let lower = text.lowercased()
        if isInfinite && !lower.contains("inf") {
            throw InputError("'\(text.prefix(50))' is beyond the range of \(typeName) for \(what)")
        }
        let mantissa = lower.prefix { $0 != "e" }
        if isZero && mantissa.contains(where: { ("1"..."9").contains($0) }) {
            throw InputError("'\(text.prefix(50))' is too small for \(typeName) (it would be stored as 0) for \(what)")
        }
    }

    /// `1.5`, `1e3`, `NaN`, `Infinity`, `-Infinity`.
    static func parseFloating(_ text: String) -> Double? {
        switch text {
        case "NaN", "nan": return .nan
        case "Infinity", "inf", "+Infinity": return .infinity
        case "-Infinity", "-inf": return -.infinity
        default:
            guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) }) else { return nil }
            return Double(text)
        }
    }
}
