import Foundation
import StrataStorage

/// How a property's values are laid out in a column (and in a collection block).
enum ColumnLayout: UInt8 {
    /// Frame-of-reference bit-packed integers: value = base + packed (bool, int, date, link).
    case int = 0
    case float = 1
    case double = 2
    /// Variable-length bytes: u32 offsets then data (string, data, decimal128, mixed).
    case bytes = 3
    /// Fixed-size elements (objectId: 12, uuid: 16).
    case fixed = 4
    /// One block ref per row in the refs section (lists, sets, maps).
    case refs = 5

    static func of(_ p: PropertySchema) -> ColumnLayout {
        if p.collection != .single { return .refs }
        return of(p.type)
    }
    static func of(_ t: PropertyType) -> ColumnLayout {
        switch t {
        case .bool, .int, .date, .object: return .int
        case .float: return .float
        case .double: return .double
        case .string, .data, .decimal128, .mixed, .linkingObjects: return .bytes
        case .objectId, .uuid: return .fixed
        }
    }
    static func fixedWidth(_ t: PropertyType) -> Int { t == .objectId ? 12 : 16 }
}

/// Block kinds of the object layer (all generic blocks: refs section + bytes).
enum ObjectBlockKind {
    static let cluster: UInt8 = 17
    static let column: UInt8 = 18
    static let collection: UInt8 = 19
    static let map: UInt8 = 20
}

/// Bytes section of a column block:
///
///     0  u8 layout, u8 flags (bit 0: has a null bitmap), u8 width, u8 0, u32 count
///     8  i64 base (int layout)
///     16 null bitmap (ceil(count/8) bytes, padded to 8) when flagged
///     .. payload: int → packed values of `width` bits (0, 1, 8, 16, 32, 64);
///        float/double → raw; bytes → u32 offsets[count+1] then data; fixed → width × count;
///        refs → nothing (the refs section holds one ref per row)
///
/// A null row stores a zero/empty payload value. Reads never copy (they point into the map).
struct ColumnView {
    let block: GenericBlock
    let layout: ColumnLayout
    let count: Int
    let width: Int
    let base: Int64
    let nulls: UnsafePointer<UInt8>?
    let payload: UnsafeRawPointer
    let payloadSize: Int

    struct Malformed: Error {}

    init(_ block: GenericBlock) throws {
        self.block = block
        let b = block.bytes
        guard b.count >= 16, let layout = ColumnLayout(rawValue: b[0]) else { throw Malformed() }
        self.layout = layout
        let p = b.baseAddress!
        count = Int(p.getLE32(4))
        width = Int(b[2])
        base = Int64(bitPattern: p.getLE64(8))
        var o = 16
        if b[1] & 1 != 0 {
            let n = (count + 7) / 8
            guard o + n <= b.count else { throw Malformed() }
            nulls = p.advanced(by: o).assumingMemoryBound(to: UInt8.self)
            o += (n + 7) & ~7
        } else { nulls = nil }
        payload = p + o
        payloadSize = b.count - o
        switch layout {
        case .int:
            guard [0, 1, 8, 16, 32, 64].contains(width), (count * width + 7) / 8 <= payloadSize else { throw Malformed() }
        case .float: guard count * 4 <= payloadSize else { throw Malformed() }
        case .double: guard count * 8 <= payloadSize else { throw Malformed() }
        case .bytes:
            guard (count + 1) * 4 <= payloadSize else { throw Malformed() }
            let dataSize = payloadSize - (count + 1) * 4
            guard count == 0 || Int(payload.getLE32(count * 4)) <= dataSize else { throw Malformed() }
        case .fixed: guard width > 0, count * width <= payloadSize else { throw Malformed() }
        case .refs: guard block.refCount == count else { throw Malformed() }
        }
    }

    @inline(__always) func isNull(_ i: Int) -> Bool {
        guard let nulls else { return false }
        return nulls[i >> 3] & (1 << UInt8(i & 7)) != 0
    }

    @inline(__always) func int(_ i: Int) -> Int64 {
        switch width {
        case 0: return base
        case 1: return base &+ Int64((payload.load(fromByteOffset: i >> 3, as: UInt8.self) >> UInt8(i & 7)) & 1)
        case 8: return base &+ Int64(payload.load(fromByteOffset: i, as: UInt8.self))
        case 16: return base &+ Int64(payload.getLE16(i * 2))
        case 32: return base &+ Int64(payload.getLE32(i * 4))
        default: return Int64(bitPattern: payload.getLE64(i * 8))
        }
    }
    @inline(__always) func float(_ i: Int) -> Float { Float(bitPattern: payload.getLE32(i * 4)) }
    @inline(__always) func double(_ i: Int) -> Double { Double(bitPattern: payload.getLE64(i * 8)) }
    @inline(__always) func bytes(_ i: Int) -> UnsafeRawBufferPointer {
        let start = Int(payload.getLE32(i * 4)), end = Int(payload.getLE32(i * 4 + 4))
        let data = payload + (count + 1) * 4
        let dataSize = payloadSize - (count + 1) * 4
        guard start <= end, end <= dataSize else { return UnsafeRawBufferPointer(start: data, count: 0) }
        return UnsafeRawBufferPointer(start: data + start, count: end - start)
    }
    @inline(__always) func fixed(_ i: Int) -> UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: payload + i * width, count: width) }
    @inline(__always) func ref(_ i: Int) -> BlockRef { block.ref(i) }

    /// Sum of all non-null values of an int column.
    func sumInts() -> Int64 {
        var s: Int64 = 0
        if nulls == nil {
            switch width {
            case 0: return base &* Int64(count)
            case 8:
                let p = payload.assumingMemoryBound(to: UInt8.self)
                var acc: UInt64 = 0
                for i in 0..<count { acc &+= UInt64(p[i]) }
                return base &* Int64(count) &+ Int64(bitPattern: acc)
            case 16:
                let p = payload.assumingMemoryBound(to: UInt16.self)
                var acc: UInt64 = 0
                for i in 0..<count { acc &+= UInt64(UInt16(littleEndian: p[i])) }
                return base &* Int64(count) &+ Int64(bitPattern: acc)
            case 32:
                let p = payload.assumingMemoryBound(to: UInt32.self)
                var acc: UInt64 = 0
                for i in 0..<count { acc &+= UInt64(UInt32(littleEndian: p[i])) }
                return base &* Int64(count) &+ Int64(bitPattern: acc)
            default: break
            }
        }
        for i in 0..<count where !isNull(i) { s &+= int(i) }
        return s
    }
}

extension UnsafeRawPointer {
    @inline(__always) func getLE16(_ o: Int) -> UInt16 { UInt16(littleEndian: loadUnaligned(fromByteOffset: o, as: UInt16.self)) }
    @inline(__always) func getLE32(_ o: Int) -> UInt32 { UInt32(littleEndian: loadUnaligned(fromByteOffset: o, as: UInt32.self)) }
    @inline(__always) func getLE64(_ o: Int) -> UInt64 { UInt64(littleEndian: loadUnaligned(fromByteOffset: o, as: UInt64.self)) }
}

/// A column decoded for modification inside a write transaction.
struct MutableColumn {
    enum Values {
        case int([Int64])
        case float([Float])
        case double([Double])
        case bytes([[UInt8]])
        case fixed(Int, [UInt8])
        case refs([CollectionSlot])
    }
    var values: Values
    /// Per-row null flags, or nil when no row is null.
    var nulls: [Bool]?

    var count: Int {
        switch values {
        case .int(let a): return a.count
        case .float(let a): return a.count
        case .double(let a): return a.count
        case .bytes(let a): return a.count
        case .fixed(let w, let a): return a.count / w
        case .refs(let a): return a.count
        }
    }

    static func empty(_ layout: ColumnLayout, fixedWidth: Int = 12) -> MutableColumn {
        switch layout {
        case .int: return MutableColumn(values: .int([]), nulls: nil)
        case .float: return MutableColumn(values: .float([]), nulls: nil)
        case .double: return MutableColumn(values: .double([]), nulls: nil)
        case .bytes: return MutableColumn(values: .bytes([]), nulls: nil)
        case .fixed: return MutableColumn(values: .fixed(fixedWidth, []), nulls: nil)
        case .refs: return MutableColumn(values: .refs([]), nulls: nil)
        }
    }

    init(values: Values, nulls: [Bool]?) { self.values = values; self.nulls = nulls }

    /// Decodes a stored column.
    init(_ v: ColumnView) {
        let n = v.count
        switch v.layout {
        case .int: values = .int((0..<n).map { v.int($0) })
        case .float: values = .float((0..<n).map { v.float($0) })
        case .double: values = .double((0..<n).map { v.double($0) })
        case .bytes: values = .bytes((0..<n).map { Array(v.bytes($0)) })
        case .fixed:
            var a = [UInt8](); a.reserveCapacity(n * v.width)
            a.append(contentsOf: UnsafeRawBufferPointer(start: v.payload, count: n * v.width))
            values = .fixed(v.width, a)
        case .refs: values = .refs((0..<n).map { .stored(v.ref($0)) })
        }
        nulls = v.nulls == nil ? nil : (0..<n).map { v.isNull($0) }
    }

    mutating func setNull(_ i: Int, _ isNull: Bool) {
        if nulls == nil {
            if !isNull { return }
            nulls = [Bool](repeating: false, count: count)
        }
        nulls![i] = isNull
    }

    mutating func appendNullFlag(_ isNull: Bool) {
        if nulls == nil { if !isNull { return }; nulls = [Bool](repeating: false, count: count - 1) }
        nulls!.append(isNull)
    }

    mutating func insertNullFlag(_ isNull: Bool, at i: Int) {
        if nulls == nil { if !isNull { return }; nulls = [Bool](repeating: false, count: count - 1) }
        nulls!.insert(isNull, at: i)
    }

    mutating func remove(at i: Int) {
        switch values {
        case .int(var a): a.remove(at: i); values = .int(a)
        case .float(var a): a.remove(at: i); values = .float(a)
        case .double(var a): a.remove(at: i); values = .double(a)
        case .bytes(var a): a.remove(at: i); values = .bytes(a)
        case .fixed(let w, var a): a.removeSubrange(i * w..<(i + 1) * w); values = .fixed(w, a)
        case .refs(var a): a.remove(at: i); values = .refs(a)
        }
        nulls?.remove(at: i)
        if let n = nulls, !n.contains(true) { nulls = nil }
    }

    /// Splits off rows [at, count) into a new column.
    mutating func split(at: Int) -> MutableColumn {
        var right: MutableColumn
        switch values {
        case .int(var a): right = MutableColumn(values: .int(Array(a[at...])), nulls: nil); a.removeSubrange(at...); values = .int(a)
        case .float(var a): right = MutableColumn(values: .float(Array(a[at...])), nulls: nil); a.removeSubrange(at...); values = .float(a)
        case .double(var a): right = MutableColumn(values: .double(Array(a[at...])), nulls: nil); a.removeSubrange(at...); values = .double(a)
        case .bytes(var a): right = MutableColumn(values: .bytes(Array(a[at...])), nulls: nil); a.removeSubrange(at...); values = .bytes(a)
        case .fixed(let w, var a): right = MutableColumn(values: .fixed(w, Array(a[(at * w)...])), nulls: nil); a.removeSubrange((at * w)...); values = .fixed(w, a)
        case .refs(var a): right = MutableColumn(values: .refs(Array(a[at...])), nulls: nil); a.removeSubrange(at...); values = .refs(a)
        }
        if let n = nulls {
            right.nulls = Array(n[at...]); nulls = Array(n[..<at])
            if !nulls!.contains(true) { nulls = nil }
            if !right.nulls!.contains(true) { right.nulls = nil }
        }
        return right
    }

    /// The bytes section size and a writer for it. Collection refs must be flushed (`.stored`) first.
    func encodedSize() -> (size: Int, width: Int, base: Int64) {
        let n = count
        var size = 16
        if nulls != nil { size += ((n + 7) / 8 + 7) & ~7 }
        var width = 0
        var base: Int64 = 0
        switch values {
        case .int(let a):
            (width, base) = MutableColumn.packing(a, nulls: nulls)
            size += (n * width + 7) / 8
        case .float: size += 4 * n
        case .double: size += 8 * n
        case .bytes(let a): size += 4 * (n + 1) + a.reduce(0) { $0 + $1.count }
        case .fixed(let w, _): size += w * n; width = w
        case .refs: break
        }
        return (size, width, base)
    }

    static func packing(_ a: [Int64], nulls: [Bool]?) -> (width: Int, base: Int64) {
        var lo = Int64.max, hi = Int64.min
        for (i, v) in a.enumerated() where nulls == nil || !nulls![i] { lo = min(lo, v); hi = max(hi, v) }
        if lo > hi { return (0, 0) }
        let (range, overflow) = hi.subtractingReportingOverflow(lo)
        if overflow || range > Int64(UInt32.max) { return (64, 0) }
        if range == 0 { return (0, lo) }
        if range <= 1 { return (1, lo) }
        if range <= 0xFF { return (8, lo) }
        if range <= 0xFFFF { return (16, lo) }
        return (32, lo)
    }

    var layout: ColumnLayout {
        switch values {
        case .int: return .int
        case .float: return .float
        case .double: return .double
        case .bytes: return .bytes
        case .fixed: return .fixed
        case .refs: return .refs
        }
    }

    func encode(into out: UnsafeMutableRawBufferPointer, width: Int, base: Int64) {
        let p = out.baseAddress!
        let n = count
        memset(p, 0, out.count)
        p.storeBytes(of: layout.rawValue, toByteOffset: 0, as: UInt8.self)
        p.storeBytes(of: UInt8(nulls != nil ? 1 : 0), toByteOffset: 1, as: UInt8.self)
        p.storeBytes(of: UInt8(width), toByteOffset: 2, as: UInt8.self)
        p.storeBytes(of: UInt32(n).littleEndian, toByteOffset: 4, as: UInt32.self)
        p.storeBytes(of: UInt64(bitPattern: base).littleEndian, toByteOffset: 8, as: UInt64.self)
        var o = 16
        if let nulls {
            for (i, isNull) in nulls.enumerated() where isNull {
                let byte = p.load(fromByteOffset: o + i >> 3, as: UInt8.self)
                p.storeBytes(of: byte | UInt8(1 << (i & 7)), toByteOffset: o + i >> 3, as: UInt8.self)
            }
            o += ((n + 7) / 8 + 7) & ~7
        }
        switch values {
        case .int(let a):
            switch width {
            case 0: break
            case 1:
                for i in 0..<n where a[i] != base && nulls?[i] != true {
                    let byte = p.load(fromByteOffset: o + i >> 3, as: UInt8.self)
                    p.storeBytes(of: byte | UInt8(1 << (i & 7)), toByteOffset: o + i >> 3, as: UInt8.self)
                }
            case 8:
                let d = (p + o).assumingMemoryBound(to: UInt8.self)
                for i in 0..<n { d[i] = nulls?[i] == true ? 0 : UInt8(truncatingIfNeeded: a[i] &- base) }
            case 16:
                for i in 0..<n { (p + o + 2 * i).storeBytes(of: UInt16(truncatingIfNeeded: nulls?[i] == true ? 0 : a[i] &- base).littleEndian, as: UInt16.self) }
            case 32:
                for i in 0..<n { (p + o + 4 * i).storeBytes(of: UInt32(truncatingIfNeeded: nulls?[i] == true ? 0 : a[i] &- base).littleEndian, as: UInt32.self) }
            default:
                for i in 0..<n { (p + o + 8 * i).storeBytes(of: UInt64(bitPattern: a[i]).littleEndian, as: UInt64.self) }
            }
        case .float(let a):
            for i in 0..<n { (p + o + 4 * i).storeBytes(of: a[i].bitPattern.littleEndian, as: UInt32.self) }
        case .double(let a):
            a.withUnsafeBytes { _ = memcpy(p + o, $0.baseAddress!, 8 * n) }
        case .bytes(let a):
            var off: UInt32 = 0
            let data = o + 4 * (n + 1)
            for i in 0..<n {
                (p + o + 4 * i).storeBytes(of: off.littleEndian, as: UInt32.self)
                a[i].withUnsafeBytes { if $0.count > 0 { _ = memcpy(p + data + Int(off), $0.baseAddress!, $0.count) } }
                off += UInt32(a[i].count)
            }
            (p + o + 4 * n).storeBytes(of: off.littleEndian, as: UInt32.self)
        case .fixed(_, let a):
            a.withUnsafeBytes { if $0.count > 0 { _ = memcpy(p + o, $0.baseAddress!, $0.count) } }
        case .refs: break
        }
    }
}

/// One row's collection inside a refs column: still the committed block, or being changed.
enum CollectionSlot {
    case stored(BlockRef)
    case dirty(CollectionValue)
}

/// A collection decoded for modification: list/set elements, or map keys + values.
final class CollectionValue {
    var elements: MutableColumn
    var mapKeys: [String]?
    init(elements: MutableColumn, mapKeys: [String]?) { self.elements = elements; self.mapKeys = mapKeys }
}
