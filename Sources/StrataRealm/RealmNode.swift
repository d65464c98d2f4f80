/// One array node of a Realm file, its 8-byte header decoded and its payload bounds-checked:
/// bytes 0-3 checksum ("AAAA" on disk), byte 4 flags (inner | hasRefs | context | wtype | widthIndex),
/// bytes 5-7 element count, big-endian. A node exists only if its whole payload lies in the file.
struct RealmNode {
    enum WidthType: UInt8 { case bits = 0, multiply = 1, ignore = 2 }

    let ref: Int
    let isInner: Bool
    let hasRefs: Bool
    let context: Bool
    let widthType: WidthType
    /// Bits per element for `.bits`, bytes per element for `.multiply`, 1 for `.ignore`.
    let width: Int
    let count: Int
    let payloadBytes: Int
    unowned(unsafe) let bytes: RealmBytes

    var payload: Int { ref &+ 8 }

    init(_ bytes: RealmBytes, ref: Int) throws {
        guard ref > 0, ref & 7 == 0 else {
            throw RealmFileError.corrupt("ref \(ref) is not a non-zero multiple of 8")
        }
        try bytes.check(ref, 8)
        let flags = try bytes.u8(ref &+ 4)
        let b5 = Int(try bytes.u8(ref &+ 5)), b6 = Int(try bytes.u8(ref &+ 6)), b7 = Int(try bytes.u8(ref &+ 7))
        let wtypeRaw = (flags >> 3) & 3
        guard let wtype = WidthType(rawValue: wtypeRaw) else {
            throw RealmFileError.corrupt("node at \(ref) uses width type 3 (the compressed arrays of format 25)")
        }
        self.ref = ref
        self.isInner = flags & 0x80 != 0
        self.hasRefs = flags & 0x40 != 0
        self.context = flags & 0x20 != 0
        self.widthType = wtype
        self.width = (1 << Int(flags & 7)) >> 1
        self.count = (b5 << 16) | (b6 << 8) | b7
        self.bytes = bytes
        let raw: Int
        switch wtype {
        case .bits: raw = (count &* width &+ 7) >> 3
        case .multiply: raw = count &* width
        case .ignore: raw = count
        }
        self.payloadBytes = raw
        try bytes.check(ref &+ 8, raw)
    }

    /// Byte size of the node on disk (header + payload rounded up to 8).
    var byteSize: Int { 8 &+ ((payloadBytes &+ 7) & ~7) }

    /// Element `i` as realm-core's `Array::get`: widths 1/2/4 unsigned, 8..64 signed.
    @inline(__always)
    func int(_ i: Int) throws -> Int64 {
        guard i >= 0, i < count else {
            throw RealmFileError.corrupt("index \(i) outside node at \(ref) of \(count) elements")
        }
        return uncheckedInt(i)
    }

    @inline(__always)
    func uncheckedInt(_ i: Int) -> Int64 {
        let p = payload
        switch width {
        case 0: return 0
        case 1: return Int64((bytes.uncheckedLE(p &+ (i >> 3), 1) >> UInt64(i & 7)) & 1)
        case 2: return Int64((bytes.uncheckedLE(p &+ (i >> 2), 1) >> UInt64((i & 3) << 1)) & 3)
        case 4: return Int64((bytes.uncheckedLE(p &+ (i >> 1), 1) >> UInt64((i & 1) << 2)) & 15)
        case 8: return Int64(Int8(truncatingIfNeeded: bytes.uncheckedLE(p &+ i, 1)))
        case 16: return Int64(Int16(truncatingIfNeeded: bytes.uncheckedLE(p &+ (i << 1), 2)))
        case 32: return Int64(Int32(truncatingIfNeeded: bytes.uncheckedLE(p &+ (i << 2), 4)))
        default: return Int64(bitPattern: bytes.uncheckedLE(p &+ (i << 3), 8))
        }
    }

    /// Element `i` read as unsigned (ArrayUnsigned: cluster keys, free lists).
    func unsigned(_ i: Int) throws -> UInt64 {
        let v = try int(i)
        switch width {
        case 8: return UInt64(UInt8(truncatingIfNeeded: v))
        case 16: return UInt64(UInt16(truncatingIfNeeded: v))
        case 32: return UInt64(UInt32(truncatingIfNeeded: v))
        default: return UInt64(bitPattern: v)
        }
    }

    /// Element `i` of a has-refs array as a ref (nil for 0 or a tagged value).
    func ref(_ i: Int) throws -> Int? {
        let v = try int(i)
        if v == 0 || v & 1 == 1 { return nil }
        guard v > 0, v <= Int64(Int.max) else { throw RealmFileError.corrupt("negative ref in node at \(ref)") }
        return Int(v)
    }

    /// Element `i` as a tagged integer (`v >> 1`); throws if it is a ref.
    func tagged(_ i: Int) throws -> Int64 {
        let v = try int(i)
        guard v & 1 == 1 else { throw RealmFileError.corrupt("expected a tagged integer at \(i) of node \(ref)") }
        return v >> 1
    }

    /// The child node at element `i`, or nil for a null ref.
    func child(_ i: Int) throws -> RealmNode? {
        guard let r = try ref(i) else { return nil }
        return try RealmNode(bytes, ref: r)
    }

    /// Raw payload bytes `[offset, offset+length)`, checked against this node's payload.
    func payloadSlice(_ offset: Int, _ length: Int) throws -> [UInt8] {
        guard offset >= 0, length >= 0, offset <= payloadBytes, length <= payloadBytes &- offset else {
            throw RealmFileError.corrupt("slice \(offset)+\(length) outside node at \(ref)")
        }
        return try bytes.bytes(payload &+ offset, length)
    }

    func payloadByte(_ offset: Int) throws -> UInt8 {
        guard offset >= 0, offset < payloadBytes else {
            throw RealmFileError.corrupt("byte \(offset) outside node at \(ref)")
        }
        return try bytes.u8(payload &+ offset)
    }
}
