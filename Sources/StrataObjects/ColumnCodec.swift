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
///     .. payload: int → packed values of `width` bits (0, 1, 8, 16, 32, 64), value = base +
///        packed; width 128 = an arithmetic sequence, value(i) = base + i, no payload (dense
///        object keys); float/double → raw; bytes → offsets[count+1] (u16 when width = 16,
///        else u32) then data; fixed → width × count;
///        refs → nothing (the refs section holds one ref per row)
///
/// A null row stores a zero/empty payload value. Reads never copy (they point into the map).
struct ColumnView {
    // Kept small (48 bytes): views are created and passed by value on every read, and copying
    // a larger one showed in lookup profiles.
    let layout: ColumnLayout
    private let widthByte: UInt8
    private let offsetByte: UInt8
    private let count32: UInt32
    let base: Int64
    let nulls: UnsafePointer<UInt8>?
    let payload: UnsafeRawPointer
    let payloadSize: Int
    /// The block's refs section (refs layout: one ref per row).
    private let refs: UnsafeRawPointer
    @inline(__always) var count: Int { Int(count32) }
    @inline(__always) var width: Int { Int(widthByte) }
    /// Bytes layout: size of one offset (2 or 4).
    @inline(__always) var offsetSize: Int { Int(offsetByte) }

    static let sequenceWidth = 128

    struct Malformed: Error {}

    init(_ block: GenericBlock) throws {
        refs = block.view.payload.baseAddress! + 8
        let b = block.bytes
        guard b.count >= 16, let layout = ColumnLayout(rawValue: b[0]) else { throw Malformed() }
        self.layout = layout
        let p = b.baseAddress!
        count32 = p.getLE32(4)
        let count = Int(count32)
        widthByte = b[2]
        let width = Int(widthByte)
        base = Int64(bitPattern: p.getLE64(8))
        var o = 16
        if b[1] & 1 != 0 {
            let n = (count + 7) / 8
            guard o + n <= b.count else { throw Malformed() }
            nulls = p.advanced(by: o).assumingMemoryBound(to: UInt8.self)
            o += (n + 7) & ~7
        } else { nulls = nil }
        payload = p + o
        let payloadSize = b.count - o
        self.payloadSize = payloadSize
        let offsetSize = layout == .bytes && width == 16 ? 2 : 4
        offsetByte = UInt8(offsetSize)
        switch layout {
        case .int:
            let packed: Bool
            switch width {
            case 0, 1, 8, 16, 32, 64: packed = (count * width + 7) / 8 <= payloadSize
            default: packed = false
            }
            guard width == ColumnView.sequenceWidth || packed else { throw Malformed() }
        case .float: guard count * 4 <= payloadSize else { throw Malformed() }
        case .double: guard count * 8 <= payloadSize else { throw Malformed() }
        case .bytes:
            guard (count + 1) * offsetSize <= payloadSize else { throw Malformed() }
            let dataSize = payloadSize - (count + 1) * offsetSize
            let last = offsetSize == 2 ? Int(payload.getLE16(count * 2)) : Int(payload.getLE32(count * 4))
            guard last <= dataSize else { throw Malformed() }
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
        case 64: return Int64(bitPattern: payload.getLE64(i * 8))
        default: return base &+ Int64(i)   // sequence
        }
    }
    @inline(__always) func float(_ i: Int) -> Float { Float(bitPattern: payload.getLE32(i * 4)) }
    @inline(__always) func double(_ i: Int) -> Double { Double(bitPattern: payload.getLE64(i * 8)) }
    @inline(__always) func bytes(_ i: Int) -> UnsafeRawBufferPointer {
        let start: Int, end: Int
        if offsetSize == 2 { start = Int(payload.getLE16(i * 2)); end = Int(payload.getLE16(i * 2 + 2)) }
        else { start = Int(payload.getLE32(i * 4)); end = Int(payload.getLE32(i * 4 + 4)) }
        let data = payload + (count + 1) * offsetSize
        let dataSize = payloadSize - (count + 1) * offsetSize
        guard start <= end, end <= dataSize else { return UnsafeRawBufferPointer(start: data, count: 0) }
        return UnsafeRawBufferPointer(start: data + start, count: end - start)
    }
    /// Bytes layout: offset `i` (0...count) into the data.
    @inline(__always) func byteOffset(_ i: Int) -> Int {
        offsetSize == 2 ? Int(payload.getLE16(i * 2)) : Int(payload.getLE32(i * 4))
    }
    @inline(__always) func fixed(_ i: Int) -> UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: payload + i * width, count: width) }
    @inline(__always) func ref(_ i: Int) -> BlockRef { refs.getLE64(i * 8) }

    /// Sum of all non-null values of an int column.
    func sumInts() -> Int64 {
        var s: Int64 = 0
        if nulls == nil {
            switch width {
            case 0: return base &* Int64(count)
            case ColumnView.sequenceWidth: return base &* Int64(count) &+ Int64(count) * Int64(count - 1) / 2
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

/// A stored column without some of its rows, encoded straight from the stored block (deleting
/// objects: no decoding into a `MutableColumn`). The kept rows are `runs` (ascending, disjoint
/// row ranges). The packing width, base and offset size stay those of the stored column (a
/// subset of the values still fits them); an arithmetic sequence that loses rows from its
/// middle is packed as offsets from its first kept value. The null bitmap is dropped when no
/// kept row is null. Nil for a bytes column whose offsets go backwards or past its data (only
/// damage can do that; the caller then decodes it, as reads do).
struct FilteredColumn {
    let view: ColumnView
    let runs: [Range<Int>]
    /// Rows kept.
    let count: Int
    /// Bytes-section byte 2 and 8..<16 of the new block.
    let width: Int
    let base: Int64
    let hasNulls: Bool
    /// Bytes layout: size of the kept data.
    let dataSize: Int
    /// Size of the bytes section.
    let size: Int

    init?(_ v: ColumnView, runs: [Range<Int>]) {
        view = v
        self.runs = runs
        let n = runs.reduce(0) { $0 + $1.count }
        count = n
        var nullsKept = false
        if let nulls = v.nulls {
            let bytes = (v.count + 7) / 8
            outer: for r in runs {
                var i = r.lowerBound
                while i < r.upperBound {
                    let k = Swift.min(r.upperBound &- i, 32)
                    if FilteredColumn.bits(nulls, bytes: bytes, at: i, count: k) != 0 { nullsKept = true; break outer }
                    i &+= k
                }
            }
        }
        hasNulls = nullsKept
        var size = 16
        if nullsKept { size += ((n + 7) / 8 + 7) & ~7 }
        var w = v.width, b = v.base, data = 0
        switch v.layout {
        case .int:
            if w == ColumnView.sequenceWidth && runs.count > 1 {
                // base + i for the kept i: offsets from the first kept value.
                let first = runs[0].lowerBound, span = runs[runs.count - 1].upperBound - 1 - first
                b = v.base &+ Int64(first)
                w = span <= 0xFF ? 8 : span <= 0xFFFF ? 16 : span <= Int(UInt32.max) ? 32 : 64
                if w == 64 { b = 0 }
            } else if w == ColumnView.sequenceWidth, let r = runs.first {
                b = v.base &+ Int64(r.lowerBound)
            }
            if w != ColumnView.sequenceWidth { size += (n * w + 7) / 8 }
        case .float: size += 4 * n
        case .double: size += 8 * n
        case .bytes:
            let limit = v.payloadSize - (v.count + 1) * v.offsetSize
            for r in runs {
                // Offsets ascend and stay within the data (checked once per run, branch-free).
                let ok = v.offsetSize == 2
                    ? FilteredColumn.ascending(v.payload.assumingMemoryBound(to: UInt16.self), r, limit: limit)
                    : FilteredColumn.ascending(v.payload.assumingMemoryBound(to: UInt32.self), r, limit: limit)
                guard ok else { return nil }
                data += v.byteOffset(r.upperBound) - v.byteOffset(r.lowerBound)
            }
            size += v.offsetSize * (n + 1) + data
        case .fixed: size += w * n
        case .refs: break
        }
        width = w; base = b; dataSize = data; self.size = size
    }

    /// The refs section of the new block (refs layout: the kept rows' refs).
    var refs: [BlockRef] {
        guard view.layout == .refs else { return [] }
        var out: [BlockRef] = []
        out.reserveCapacity(count)
        for r in runs { for i in r { out.append(view.ref(i)) } }
        return out
    }

    /// Writes the bytes section (`size` bytes).
    func encode(into out: UnsafeMutableRawBufferPointer) {
        let p = out.baseAddress!
        let v = view, n = count
        // Zeroed: the header and null bitmap; bit-packed and repacked payloads (the gathers
        // below write every other byte).
        let gathers = v.layout != .int || (v.width != ColumnView.sequenceWidth && width >= 8)
        memset(p, 0, gathers ? min(out.count, 16 + (hasNulls ? ((n + 7) / 8 + 7) & ~7 : 0)) : out.count)
        p.storeBytes(of: v.layout.rawValue, toByteOffset: 0, as: UInt8.self)
        p.storeBytes(of: UInt8(hasNulls ? 1 : 0), toByteOffset: 1, as: UInt8.self)
        p.storeBytes(of: UInt8(width), toByteOffset: 2, as: UInt8.self)
        p.storeBytes(of: UInt32(n).littleEndian, toByteOffset: 4, as: UInt32.self)
        p.storeBytes(of: UInt64(bitPattern: base).littleEndian, toByteOffset: 8, as: UInt64.self)
        var o = 16
        if hasNulls, let nulls = v.nulls {
            FilteredColumn.gatherBits(nulls, bytes: (v.count + 7) / 8, runs: runs, into: (p + o).assumingMemoryBound(to: UInt8.self))
            o += ((n + 7) / 8 + 7) & ~7
        }
        let q = p + o
        /// Copies the kept elements of `size` bytes each.
        func gather(_ size: Int) {
            var d = 0
            for r in runs {
                let len = r.count * size
                memcpy(q + d, v.payload + r.lowerBound * size, len)
                d += len
            }
        }
        switch v.layout {
        case .int:
            if v.width == ColumnView.sequenceWidth {
                guard width != ColumnView.sequenceWidth else { break }
                switch width {
                case 8: FilteredColumn.packSequence(UInt8.self, runs, first: v.base &- base, into: q)
                case 16: FilteredColumn.packSequence(UInt16.self, runs, first: v.base &- base, into: q)
                case 32: FilteredColumn.packSequence(UInt32.self, runs, first: v.base &- base, into: q)
                default: FilteredColumn.packSequence(UInt64.self, runs, first: v.base &- base, into: q)
                }
            } else if width == 1 {
                FilteredColumn.gatherBits(v.payload.assumingMemoryBound(to: UInt8.self), bytes: (v.count + 7) / 8, runs: runs,
                                          into: q.assumingMemoryBound(to: UInt8.self))
            } else if width > 0 {
                gather(width / 8)
            }
        case .float: gather(4)
        case .double: gather(8)
        case .fixed: gather(width)
        case .bytes:
            let os = v.offsetSize
            let data = q + os * (n + 1)
            let src = v.payload + os * (v.count + 1)
            var j = 0, d = 0
            for r in runs {
                let lo = v.byteOffset(r.lowerBound), hi = v.byteOffset(r.upperBound)
                memcpy(data + d, src + lo, hi - lo)
                // Each kept offset moves by the same amount within a run (d - lo, wrapping in
                // the offset's width: every result lies in 0...dataSize, which fits).
                if os == 2 {
                    FilteredColumn.shiftOffsets(v.payload.assumingMemoryBound(to: UInt16.self), r,
                                                by: UInt16(truncatingIfNeeded: d &- lo), into: q.assumingMemoryBound(to: UInt16.self) + j)
                } else {
                    FilteredColumn.shiftOffsets(v.payload.assumingMemoryBound(to: UInt32.self), r,
                                                by: UInt32(truncatingIfNeeded: d &- lo), into: q.assumingMemoryBound(to: UInt32.self) + j)
                }
                j &+= r.count
                d &+= hi &- lo
            }
            if os == 2 { q.storeBytes(of: UInt16(d).littleEndian, toByteOffset: 2 * n, as: UInt16.self) }
            else { q.storeBytes(of: UInt32(d).littleEndian, toByteOffset: 4 * n, as: UInt32.self) }
        case .refs: break
        }
    }
}

extension FilteredColumn {
    /// True when the offsets `r.lowerBound...r.upperBound` (little endian) never decrease and
    /// the last is at most `limit` (then all are).
    @inline(__always)
    static func ascending<T: FixedWidthInteger & UnsignedInteger>(_ offsets: UnsafePointer<T>, _ r: Range<Int>, limit: Int) -> Bool {
        var bad = false
        var last = T(littleEndian: offsets[r.lowerBound])
        for i in r {
            let next = T(littleEndian: offsets[i &+ 1])
            bad = bad || next < last
            last = next
        }
        return !bad && Int(last) <= limit
    }

    /// Stores `first + i` (wrapping, truncated to `T`, little endian) for each kept row `i`
    /// of `runs`, one after another from `out`: the kept values of an arithmetic sequence,
    /// packed.
    @inline(__always)
    static func packSequence<T: FixedWidthInteger & UnsignedInteger>(_: T.Type, _ runs: [Range<Int>], first: Int64,
                                                                    into out: UnsafeMutableRawPointer) {
        var j = 0
        for r in runs {
            let start = first &+ Int64(r.lowerBound)
            for k in 0..<r.count {
                out.storeBytes(of: T(truncatingIfNeeded: start &+ Int64(k)).littleEndian, toByteOffset: (j &+ k) &* MemoryLayout<T>.size, as: T.self)
            }
            j &+= r.count
        }
    }

    /// Stores offsets `r` of `offsets` plus `delta` (wrapping) at `out`, little endian.
    @inline(__always)
    static func shiftOffsets<T: FixedWidthInteger & UnsignedInteger>(_ offsets: UnsafePointer<T>, _ r: Range<Int>, by delta: T,
                                                                    into out: UnsafeMutablePointer<T>) {
        let src = offsets + r.lowerBound
        for k in 0..<r.count { out[k] = (T(littleEndian: src[k]) &+ delta).littleEndian }
    }

    /// `count` (at most 57) bits of a bitmap of `bytes` bytes starting at bit `i` (bit `i` at
    /// byte `i >> 3`, bit `i & 7`), as the low bits of the result. Reads no byte past `bytes`.
    @inline(__always)
    static func bits(_ src: UnsafePointer<UInt8>, bytes: Int, at i: Int, count: Int) -> UInt64 {
        let b = i >> 3
        var w: UInt64
        if b &+ 8 <= bytes {
            w = UInt64(littleEndian: UnsafeRawPointer(src + b).loadUnaligned(as: UInt64.self))
        } else {
            w = 0
            var k = 0
            while b &+ k < bytes && k < 8 { w |= UInt64(src[b &+ k]) << UInt64(8 &* k); k &+= 1 }
        }
        return (w >> UInt64(i & 7)) & ((UInt64(1) << UInt64(count)) &- 1)
    }

    /// Copies the bits of rows `runs` of the bitmap `src` (`bytes` bytes) to consecutive bits
    /// of `dst` from bit 0, 32 at a time; writes `ceil(kept / 8)` bytes.
    static func gatherBits(_ src: UnsafePointer<UInt8>, bytes: Int, runs: [Range<Int>], into dst: UnsafeMutablePointer<UInt8>) {
        var acc: UInt64 = 0, held = 0, o = 0
        for r in runs {
            var i = r.lowerBound
            while i < r.upperBound {
                let k = Swift.min(r.upperBound &- i, 32)
                acc |= bits(src, bytes: bytes, at: i, count: k) << UInt64(held)
                held &+= k
                i &+= k
                if held >= 32 {
                    UnsafeMutableRawPointer(dst + o).storeBytes(of: UInt32(truncatingIfNeeded: acc).littleEndian, as: UInt32.self)
                    o &+= 4
                    acc >>= 32
                    held &-= 32
                }
            }
        }
        while held > 0 {
            dst[o] = UInt8(truncatingIfNeeded: acc)
            o &+= 1
            acc >>= 8
            held &-= 8
        }
    }
}

extension UnsafeRawPointer {
    @inline(__always) func getLE16(_ o: Int) -> UInt16 { UInt16(littleEndian: loadUnaligned(fromByteOffset: o, as: UInt16.self)) }
    @inline(__always) func getLE32(_ o: Int) -> UInt32 { UInt32(littleEndian: loadUnaligned(fromByteOffset: o, as: UInt32.self)) }
    @inline(__always) func getLE64(_ o: Int) -> UInt64 { UInt64(littleEndian: loadUnaligned(fromByteOffset: o, as: UInt64.self)) }
}

/// A column decoded for modification inside a write transaction. A reference type with
/// contiguous storage per layout (ints, floats, doubles, variable bytes as offsets + one data
/// array, fixed-width bytes, collection slots), so appends and updates happen in place.
final class MutableColumn {
    let layout: ColumnLayout
    /// Element size of the fixed layout.
    let width: Int
    var ints: [Int64] = []
    var floats: [Float] = []
    var doubles: [Double] = []
    /// Bytes layout: `offsets[i]..<offsets[i+1]` of `data`. Fixed layout: `data` holds width × count.
    var offsets: [UInt32] = [0]
    var data: [UInt8] = []
    var refs: [CollectionSlot] = []
    /// Per-row null flags, or nil when no row is null.
    var nulls: [Bool]?
    private(set) var count = 0

    init(layout: ColumnLayout, width: Int = 0) { self.layout = layout; self.width = width }

    static func empty(_ layout: ColumnLayout, fixedWidth: Int = 12) -> MutableColumn {
        MutableColumn(layout: layout, width: layout == .fixed ? fixedWidth : 0)
    }

    static func ints(_ a: [Int64]) -> MutableColumn {
        let c = MutableColumn(layout: .int); c.ints = a; c.count = a.count; return c
    }

    static func strings(_ a: [String]) -> MutableColumn {
        let c = MutableColumn(layout: .bytes)
        for s in a { c.appendBytes(Array(s.utf8)); c.count += 1 }
        return c
    }

    /// Decodes a stored column.
    init(_ v: ColumnView) {
        layout = v.layout
        width = v.layout == .fixed ? v.width : 0
        let n = v.count
        count = n
        switch v.layout {
        case .int: ints = MutableColumn.decodeInts(v)
        case .float: floats = (0..<n).map { v.float($0) }
        case .double:
            // Stored little-endian: on a little-endian host one copy (a small commit decodes the
            // columns of the cluster it changes); elsewhere value by value.
            #if _endian(little)
            doubles = [Double](unsafeUninitializedCapacity: n) { b, initialized in
                if n > 0 { memcpy(b.baseAddress!, v.payload, n * 8) }
                initialized = n
            }
            #else
            doubles = (0..<n).map { v.double($0) }
            #endif
        case .bytes:
            if !decodeBytesInBulk(v) {
                offsets = [0]; data = []
                offsets.reserveCapacity(n + 1)
                for i in 0..<n { appendBytesRaw(v.bytes(i)) }
            }
        case .fixed: data = Array(UnsafeRawBufferPointer(start: v.payload, count: n * v.width))
        case .refs: refs = (0..<n).map { .stored(v.ref($0)) }
        }
        nulls = v.nulls == nil ? nil : (0..<n).map { v.isNull($0) }
    }

    /// Int layout: every value of a stored column, one loop per width (the width is not
    /// re-examined per row: a small commit decodes the int columns of each cluster it changes).
    static func decodeInts(_ v: ColumnView) -> [Int64] {
        let n = v.count, base = v.base, p = v.payload
        return [Int64](unsafeUninitializedCapacity: n) { b, initialized in
            switch v.width {
            case 0: for i in 0..<n { b[i] = base }
            case 8: for i in 0..<n { b[i] = base &+ Int64(p.load(fromByteOffset: i, as: UInt8.self)) }
            case 16: for i in 0..<n { b[i] = base &+ Int64(UInt16(littleEndian: p.loadUnaligned(fromByteOffset: i &* 2, as: UInt16.self))) }
            case 32: for i in 0..<n { b[i] = base &+ Int64(UInt32(littleEndian: p.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self))) }
            case 64: for i in 0..<n { b[i] = Int64(littleEndian: p.loadUnaligned(fromByteOffset: i &* 8, as: Int64.self)) }
            default: for i in 0..<n { b[i] = v.int(i) }   // 1-bit packing and sequences
            }
            initialized = n
        }
    }

    /// Bytes layout: the offsets and the data of a stored column in two copies, when its
    /// offsets ascend within its data (always, unless the block is damaged; then false and
    /// nothing is set, and the caller decodes row by row as reads do).
    private func decodeBytesInBulk(_ v: ColumnView) -> Bool {
        let n = v.count
        guard n > 0 else { offsets = [0]; data = []; return true }
        let dataSize = v.payloadSize - (n + 1) * v.offsetSize
        let first = v.byteOffset(0)
        guard first <= dataSize else { return false }
        var o = [UInt32](repeating: 0, count: n + 1)
        var last = first
        let ok = o.withUnsafeMutableBufferPointer { out -> Bool in
            for i in 1...n {
                let x = v.byteOffset(i)
                guard x >= last, x <= dataSize else { return false }
                out[i] = UInt32(x - first)
                last = x
            }
            return true
        }
        guard ok else { return false }
        offsets = o
        data = Array(UnsafeRawBufferPointer(start: v.payload + (n + 1) * v.offsetSize + first, count: last - first))
        return true
    }

    // MARK: bytes helpers

    func appendBytes(_ b: [UInt8]) { data.append(contentsOf: b); offsets.append(UInt32(data.count)) }
    func appendBytesRaw(_ b: UnsafeRawBufferPointer) { data.append(contentsOf: b); offsets.append(UInt32(data.count)) }
    func bytesRange(_ i: Int) -> Range<Int> { Int(offsets[i])..<Int(offsets[i + 1]) }
    func withBytes<R>(_ i: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try data.withUnsafeBytes { b in
            if layout == .fixed { return try body(UnsafeRawBufferPointer(rebasing: b[(i * width)..<((i + 1) * width)])) }
            return try body(UnsafeRawBufferPointer(rebasing: b[bytesRange(i)]))
        }
    }
    private func replaceBytes(_ i: Int, with b: [UInt8]) {
        let r = bytesRange(i)
        data.replaceSubrange(r, with: b)
        let delta = Int64(b.count) - Int64(r.count)
        if delta != 0 { for j in (i + 1)..<offsets.count { offsets[j] = UInt32(Int64(offsets[j]) + delta) } }
    }

    // MARK: row operations (payload only; the caller keeps `nulls` via the helpers below)

    /// Appends a row given its payload parts (only the one matching the layout is used).
    func appendRow(int: Int64 = 0, float: Float = 0, double: Double = 0, bytes: [UInt8] = [], isNull: Bool) {
        switch layout {
        case .int: ints.append(int)
        case .float: floats.append(float)
        case .double: doubles.append(double)
        case .bytes: appendBytes(bytes)
        case .fixed: data.append(contentsOf: bytes.count == width ? bytes : [UInt8](repeating: 0, count: width))
        case .refs: refs.append(.stored(0))
        }
        count += 1
        if nulls != nil || isNull {
            if nulls == nil { nulls = [Bool](repeating: false, count: count - 1) }
            nulls!.append(isNull)
        }
    }

    /// Appends non-null rows of an int layout (Int and Bool columns) in one step.
    func appendInts<C: Collection>(_ a: C) where C.Element == Int64 {
        ints.append(contentsOf: a)
        count += a.count
        if nulls != nil { nulls!.append(contentsOf: repeatElement(false, count: a.count)) }
    }

    /// Appends non-null rows of a double layout in one step.
    func appendDoubles<C: Collection>(_ a: C) where C.Element == Double {
        doubles.append(contentsOf: a)
        count += a.count
        if nulls != nil { nulls!.append(contentsOf: repeatElement(false, count: a.count)) }
    }

    /// Appends non-null string rows of a bytes layout in one step.
    func appendStrings<C: Collection>(_ a: C) where C.Element == String {
        var d = data, o = offsets
        data = []; offsets = []
        o.reserveCapacity(o.count + a.count)
        for var s in a {
            s.withUTF8 { d.append(contentsOf: $0) }
            o.append(UInt32(d.count))
        }
        data = d; offsets = o
        count += a.count
        if nulls != nil { nulls!.append(contentsOf: repeatElement(false, count: a.count)) }
    }

    /// Appends a non-null string row without an intermediate array.
    func appendStringRow(_ s: String) {
        var s = s
        s.withUTF8 { data.append(contentsOf: $0) }
        offsets.append(UInt32(data.count))
        count += 1
        if nulls != nil { nulls!.append(false) }
    }

    func insertRow(at i: Int, int: Int64 = 0, float: Float = 0, double: Double = 0, bytes: [UInt8] = [], isNull: Bool) {
        if i == count { appendRow(int: int, float: float, double: double, bytes: bytes, isNull: isNull); return }
        switch layout {
        case .int: ints.insert(int, at: i)
        case .float: floats.insert(float, at: i)
        case .double: doubles.insert(double, at: i)
        case .bytes:
            let start = Int(offsets[i])
            data.insert(contentsOf: bytes, at: start)
            offsets.insert(UInt32(start), at: i)
            if !bytes.isEmpty { for j in (i + 1)..<offsets.count { offsets[j] += UInt32(bytes.count) } }
        case .fixed: data.insert(contentsOf: bytes.count == width ? bytes : [UInt8](repeating: 0, count: width), at: i * width)
        case .refs: refs.insert(.stored(0), at: i)
        }
        count += 1
        if nulls != nil || isNull {
            if nulls == nil { nulls = [Bool](repeating: false, count: count - 1) }
            nulls!.insert(isNull, at: i)
        }
    }

    func setRow(_ i: Int, int: Int64 = 0, float: Float = 0, double: Double = 0, bytes: [UInt8] = [], isNull: Bool) {
        switch layout {
        case .int: ints[i] = int
        case .float: floats[i] = float
        case .double: doubles[i] = double
        case .bytes: replaceBytes(i, with: bytes)
        case .fixed: data.replaceSubrange(i * width..<(i + 1) * width, with: bytes.count == width ? bytes : [UInt8](repeating: 0, count: width))
        case .refs: break
        }
        if nulls != nil || isNull {
            if nulls == nil { nulls = [Bool](repeating: false, count: count) }
            nulls![i] = isNull
        }
    }

    /// Removes the rows whose `remove` flag is set, in one pass: the runs of kept rows are
    /// copied in bulk.
    func removeRows(_ remove: [Bool]) {
        var runs: [Range<Int>] = []
        var start = -1
        for i in 0..<min(remove.count, count) {
            if remove[i] {
                if start >= 0 { runs.append(start..<i); start = -1 }
            } else if start < 0 { start = i }
        }
        if start >= 0 { runs.append(start..<count) }
        let kept = runs.reduce(0) { $0 + $1.count }
        if kept == count { return }
        switch layout {
        case .int: ints = Self.gather(ints, runs, kept)
        case .float: floats = Self.gather(floats, runs, kept)
        case .double: doubles = Self.gather(doubles, runs, kept)
        case .bytes:
            var nd: [UInt8] = []; nd.reserveCapacity(data.count)
            var no: [UInt32] = []; no.reserveCapacity(kept + 1); no.append(0)
            offsets.withUnsafeBufferPointer { off in
                data.withUnsafeBufferPointer { d in
                    for r in runs {
                        let lo = Int(off[r.lowerBound]), hi = Int(off[r.upperBound])
                        let base = UInt32(nd.count)
                        nd.append(contentsOf: UnsafeBufferPointer(rebasing: d[lo..<hi]))
                        for j in r { no.append(off[j + 1] - UInt32(lo) + base) }
                    }
                }
            }
            data = nd; offsets = no
        case .fixed:
            let w = width
            data = Self.gather(data, runs.map { ($0.lowerBound * w)..<($0.upperBound * w) }, kept * w)
        case .refs: refs = Self.gather(refs, runs, kept)
        }
        if let n = nulls { let g = Self.gather(n, runs, kept); nulls = g.contains(true) ? g : nil }
        count = kept
    }

    /// The elements of `runs` (ascending, disjoint) of `a`, in order.
    private static func gather<T>(_ a: [T], _ runs: [Range<Int>], _ n: Int) -> [T] {
        var out: [T] = []
        out.reserveCapacity(n)
        a.withUnsafeBufferPointer { b in for r in runs { out.append(contentsOf: UnsafeBufferPointer(rebasing: b[r])) } }
        return out
    }

    /// Splits off rows [at, count) into a new column.
    func split(at: Int) -> MutableColumn {
        let right = MutableColumn(layout: layout, width: width)
        switch layout {
        case .int: right.ints = Array(ints[at...]); ints.removeSubrange(at...)
        case .float: right.floats = Array(floats[at...]); floats.removeSubrange(at...)
        case .double: right.doubles = Array(doubles[at...]); doubles.removeSubrange(at...)
        case .bytes:
            let cut = Int(offsets[at])
            right.data = Array(data[cut...])
            right.offsets = offsets[at...].map { $0 - UInt32(cut) }
            data.removeSubrange(cut...)
            offsets.removeSubrange((at + 1)...)
        case .fixed: right.data = Array(data[(at * width)...]); data.removeSubrange((at * width)...)
        case .refs: right.refs = Array(refs[at...]); refs.removeSubrange(at...)
        }
        right.count = count - at
        count = at
        if let n = nulls {
            right.nulls = Array(n[at...]); nulls = Array(n[..<at])
            if !nulls!.contains(true) { nulls = nil }
            if !right.nulls!.contains(true) { right.nulls = nil }
        }
        return right
    }

    // MARK: encoding

    /// The bytes-section size, packing width and base of the encoded column.
    func encodedSize() -> (size: Int, width: Int, base: Int64) {
        let n = count
        var size = 16
        if nulls != nil { size += ((n + 7) / 8 + 7) & ~7 }
        var w = 0
        var base: Int64 = 0
        switch layout {
        case .int:
            (w, base) = MutableColumn.packing(ints, nulls: nulls)
            if w != ColumnView.sequenceWidth { size += (n * w + 7) / 8 }
        case .float: size += 4 * n
        case .double: size += 8 * n
        case .bytes:
            w = data.count <= Int(UInt16.max) ? 16 : 32
            size += (w / 8) * (n + 1) + data.count
        case .fixed: size += width * n; w = width
        case .refs: break
        }
        return (size, w, base)
    }

    static func packing(_ a: [Int64], nulls: [Bool]?) -> (width: Int, base: Int64) {
        var lo = Int64.max, hi = Int64.min
        // Through buffer pointers: the column is packed at every commit that changes it (a
        // pass over its rows), and element access would check bounds at each row.
        if let nulls {
            a.withUnsafeBufferPointer { v in
                nulls.withUnsafeBufferPointer { n in
                    for i in 0..<min(v.count, n.count) where !n[i] { lo = min(lo, v[i]); hi = max(hi, v[i]) }
                }
            }
        } else {
            a.withUnsafeBufferPointer { v in for x in v { lo = min(lo, x); hi = max(hi, x) } }
        }
        if lo > hi { return (0, 0) }
        if nulls == nil, a.count >= 2, hi &- lo == Int64(a.count - 1), a[0] == lo {
            let seq = a.withUnsafeBufferPointer { v -> Bool in
                var next = lo
                for x in v { if x != next { return false }; next &+= 1 }
                return true
            }
            if seq { return (ColumnView.sequenceWidth, lo) }
        }
        let (range, overflow) = hi.subtractingReportingOverflow(lo)
        if overflow || range > Int64(UInt32.max) { return (64, 0) }
        if range == 0 { return (0, lo) }
        if range <= 1 { return (1, lo) }
        if range <= 0xFF { return (8, lo) }
        if range <= 0xFFFF { return (16, lo) }
        return (32, lo)
    }

    func encode(into out: UnsafeMutableRawBufferPointer, width w: Int, base: Int64) {
        let p = out.baseAddress!
        let n = count
        memset(p, 0, out.count)
        p.storeBytes(of: layout.rawValue, toByteOffset: 0, as: UInt8.self)
        p.storeBytes(of: UInt8(nulls != nil ? 1 : 0), toByteOffset: 1, as: UInt8.self)
        p.storeBytes(of: UInt8(w), toByteOffset: 2, as: UInt8.self)
        p.storeBytes(of: UInt32(n).littleEndian, toByteOffset: 4, as: UInt32.self)
        p.storeBytes(of: UInt64(bitPattern: base).littleEndian, toByteOffset: 8, as: UInt64.self)
        var o = 16
        if let nulls {
            let bits = (p + o).assumingMemoryBound(to: UInt8.self)
            for i in 0..<n where nulls[i] { bits[i >> 3] |= UInt8(1 << (i & 7)) }
            o += ((n + 7) / 8 + 7) & ~7
        }
        let q = p + o
        switch layout {
        case .int:
            ints.withUnsafeBufferPointer { a in
                let isNull: (Int) -> Bool = { i in self.nulls?[i] == true }
                switch w {
                case 0, ColumnView.sequenceWidth: break
                case 1:
                    let bits = q.assumingMemoryBound(to: UInt8.self)
                    for i in 0..<n where a[i] != base && !isNull(i) { bits[i >> 3] |= UInt8(1 << (i & 7)) }
                case 8:
                    let d = q.assumingMemoryBound(to: UInt8.self)
                    if nulls == nil { for i in 0..<n { d[i] = UInt8(truncatingIfNeeded: a[i] &- base) } }
                    else { for i in 0..<n { d[i] = isNull(i) ? 0 : UInt8(truncatingIfNeeded: a[i] &- base) } }
                case 16:
                    let d = q.assumingMemoryBound(to: UInt16.self)
                    for i in 0..<n { d[i] = (isNull(i) ? 0 : UInt16(truncatingIfNeeded: a[i] &- base)).littleEndian }
                case 32:
                    let d = q.assumingMemoryBound(to: UInt32.self)
                    for i in 0..<n { d[i] = (isNull(i) ? 0 : UInt32(truncatingIfNeeded: a[i] &- base)).littleEndian }
                default:
                    let d = q.assumingMemoryBound(to: UInt64.self)
                    for i in 0..<n { d[i] = UInt64(bitPattern: a[i]).littleEndian }
                }
            }
        case .float:
            let d = q.assumingMemoryBound(to: UInt32.self)
            for i in 0..<n { d[i] = floats[i].bitPattern.littleEndian }
        case .double:
            #if _endian(little)
            doubles.withUnsafeBytes { if $0.count > 0 { _ = memcpy(q, $0.baseAddress!, $0.count) } }
            #else
            let d = q.assumingMemoryBound(to: UInt64.self)
            for i in 0..<n { d[i] = doubles[i].bitPattern.littleEndian }
            #endif
        case .bytes:
            if w == 16 {
                let d = q.assumingMemoryBound(to: UInt16.self)
                for i in 0...n { d[i] = UInt16(offsets[i]).littleEndian }
            } else {
                let d = q.assumingMemoryBound(to: UInt32.self)
                for i in 0...n { d[i] = offsets[i].littleEndian }
            }
            data.withUnsafeBytes { if $0.count > 0 { _ = memcpy(q + (w / 8) * (n + 1), $0.baseAddress!, $0.count) } }
        case .fixed:
            data.withUnsafeBytes { if $0.count > 0 { _ = memcpy(q, $0.baseAddress!, $0.count) } }
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
