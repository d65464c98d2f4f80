/// String and binary leaves: short (fixed-width slots), enum (indices into interned values),
/// medium (`ArraySmallBlobs`: end offsets, blob, nulls) and big (`ArrayBigBlobs`: one blob per value).
enum RealmStrings {
    /// Number of elements of a string or binary leaf.
    static func count(_ node: RealmNode) throws -> Int {
        if node.hasRefs && !node.context {
            guard node.count >= 1, let offsets = try node.child(0) else {
                throw RealmFileError.corrupt("string leaf at \(node.ref) lacks offsets")
            }
            return offsets.count
        }
        return node.count
    }

    /// Element `i` as raw bytes (nil = null). `isString` strips the NUL terminator of blob forms.
    static func bytes(_ node: RealmNode, _ i: Int, isString: Bool, enumKeys: Int?) throws -> [UInt8]? {
        let bytes = node.bytes
        if !node.hasRefs {
            if node.widthType == .multiply {
                // Short strings: fixed-width slots, last byte = width - 1 - length.
                guard i >= 0, i < node.count else { throw RealmFileError.corrupt("index \(i) outside string leaf \(node.ref)") }
                let w = node.width
                if w == 0 { return nil }
                let start = i &* w
                let last = Int(Int8(bitPattern: try node.payloadByte(start &+ w &- 1)))
                let len = (w &- 1) &- last
                if len == -1 { return nil }
                guard len >= 0, len < w else { throw RealmFileError.corrupt("bad short string length in leaf \(node.ref)") }
                return try node.payloadSlice(start, len)
            }
            // Enum (interned) strings: the element is an index into the column's key strings.
            guard let ek = enumKeys else { throw RealmFileError.corrupt("enumerated string leaf \(node.ref) without key strings") }
            let idx = try node.int(i)
            let keys = try RealmNode(bytes, ref: ek)
            guard idx >= 0, idx < Int64(try count(keys)) else { throw RealmFileError.corrupt("enum string index \(idx) out of range") }
            return try self.bytes(keys, Int(idx), isString: isString, enumKeys: nil)
        }
        if !node.context {
            guard node.count >= 2, let offsets = try node.child(0), let blob = try node.child(1) else {
                throw RealmFileError.corrupt("medium string leaf \(node.ref) is malformed")
            }
            if node.count >= 3, let nulls = try node.child(2), i < nulls.count, try nulls.int(i) != 0 { return nil }
            let begin = i == 0 ? 0 : Int(clamping: try offsets.int(i &- 1))
            let end = Int(clamping: try offsets.int(i))
            guard begin >= 0, end >= begin else { throw RealmFileError.corrupt("medium string offsets out of order in \(node.ref)") }
            var len = end &- begin
            if isString {
                guard len >= 1 else { throw RealmFileError.corrupt("medium string without terminator in \(node.ref)") }
                len -= 1
            }
            return try blob.payloadSlice(begin, len)
        }
        // Big blobs.
        guard let r = try node.ref(i) else { return nil }
        let blob = try RealmNode(bytes, ref: r)
        var len = blob.payloadBytes
        if isString {
            guard len >= 1 else { throw RealmFileError.corrupt("big string without terminator at \(r)") }
            len -= 1
        }
        return try blob.payloadSlice(0, len)
    }

    static func string(_ node: RealmNode, _ i: Int, enumKeys: Int? = nil) throws -> String? {
        guard let b = try bytes(node, i, isString: true, enumKeys: enumKeys) else { return nil }
        return String(decoding: b, as: UTF8.self)
    }

    /// All strings of an `ArrayStringShort` (table names, column names).
    static func shortArray(_ node: RealmNode) throws -> [String?] {
        let n = try count(node)
        var out: [String?] = []
        out.reserveCapacity(n)
        for i in 0..<n { out.append(try string(node, i)) }
        return out
    }
}
