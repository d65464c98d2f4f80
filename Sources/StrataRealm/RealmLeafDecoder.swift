/// Decodes column leaves and collections into `RealmValue`s. Each leaf class of realm-core has
/// one reader here; the element type comes from the ColKey, never from the spec's type array
/// (which still says LinkList for link lists in format-24 files).
struct RealmLeafDecoder {
    let bytes: RealmBytes
    let format: Int
    /// Table key → class name (typed links, links inside Mixed).
    let className: (Int64) -> String?
    /// Group index → class name.
    let tableName: (Int) -> String?

    /// What the elements of a leaf are.
    struct Element {
        var type: RealmColumnType
        var nullable: Bool
        var enumKeys: Int? = nil
        var linkTarget: String? = nil
        /// Cluster link columns store key+1 (0 = null); link lists store the key itself.
        var linkPlusOne: Bool = true
    }

    static let maxDepth = 64
    static let maxElements = 1 << 26
    /// The most elements a collection's B+tree leaf is read with. realm-core splits leaves at
    /// REALM_MAX_BPNODE_SIZE (1000 in every SDK); a node's 24-bit count can claim 2^24 with no
    /// bytes behind it (width 0), which would print millions of nulls or zeros per value.
    static let maxLeafElements = 1 << 16

    /// Refuses a collection leaf claiming more elements than realm-core ever puts in one.
    func checkLeafSize(_ n: Int, _ leaf: RealmNode) throws {
        guard n <= RealmLeafDecoder.maxLeafElements else {
            throw RealmFileError.corrupt("collection leaf at \(leaf.ref) claims \(n) elements; realm-core's leaves hold at most \(RealmLeafDecoder.maxLeafElements)")
        }
    }

    // MARK: leaf sizes

    func count(_ node: RealmNode, _ e: Element) throws -> Int {
        switch e.type {
        case .int, .oldDateTime:
            return e.nullable ? max(node.count - 1, 0) : node.count
        case .string, .binary, .oldStringEnum:
            return try RealmStrings.count(node)
        case .timestamp:
            guard node.count >= 1, let s = try node.child(0) else { throw RealmFileError.corrupt("timestamp leaf \(node.ref) malformed") }
            return max(s.count - 1, 0)
        case .objectId:
            return node.width == 0 ? node.count : RealmLeafDecoder.fixedCount(node.count, 12)
        case .uuid:
            return node.width == 0 ? node.count : RealmLeafDecoder.fixedCount(node.count, 16)
        case .typedLink:
            return node.count / 2
        case .mixed:
            guard node.count >= 1, let c = try node.child(0) else { throw RealmFileError.corrupt("mixed leaf \(node.ref) malformed") }
            return c.count
        default:
            return node.count
        }
    }

    static func fixedCount(_ byteCount: Int, _ w: Int) -> Int {
        let block = w * 8 + 1
        return (byteCount - (byteCount + block - 1) / block) / w
    }

    // MARK: one element

    func element(_ node: RealmNode, _ i: Int, _ e: Element, depth: Int = 0, budget: RealmWorkBudget) throws -> RealmValue {
        switch e.type {
        case .int, .oldDateTime:
            if e.nullable {
                let nullValue = try node.int(0)
                let v = try node.int(i &+ 1)
                return v == nullValue ? .null : .int(v)
            }
            return .int(try node.int(i))
        case .bool:
            let v = try node.int(i)
            if e.nullable && v == 3 { return .null }
            return .bool(v != 0)
        case .float:
            guard node.widthType == .multiply, node.width == 4 || node.count == 0 else {
                throw RealmFileError.corrupt("float leaf \(node.ref) has width \(node.width)")
            }
            guard i >= 0, i < node.count else { throw RealmFileError.corrupt("index \(i) outside float leaf") }
            let bits = UInt32(truncatingIfNeeded: try bytes.le(node.payload &+ i &* 4, 4))
            if e.nullable && bits == 0x7fc0_00aa { return .null }
            return .float(Float(bitPattern: bits))
        case .double:
            guard node.widthType == .multiply, node.width == 8 || node.count == 0 else {
                throw RealmFileError.corrupt("double leaf \(node.ref) has width \(node.width)")
            }
            guard i >= 0, i < node.count else { throw RealmFileError.corrupt("index \(i) outside double leaf") }
            let bits = try bytes.le(node.payload &+ i &* 8, 8)
            if e.nullable && bits == 0x7ff8_0000_0000_00aa { return .null }
            return .double(Double(bitPattern: bits))
        case .string, .oldStringEnum:
            guard let s = try RealmStrings.string(node, i, enumKeys: e.enumKeys) else { return e.nullable ? .null : .string("") }
            return .string(s)
        case .binary:
            guard let b = try RealmStrings.bytes(node, i, isString: false, enumKeys: nil) else { return e.nullable ? .null : .binary([]) }
            return .binary(b)
        case .timestamp:
            guard node.count >= 2, let s = try node.child(0), let n = try node.child(1) else {
                throw RealmFileError.corrupt("timestamp leaf \(node.ref) malformed")
            }
            let nullValue = try s.int(0)
            let sec = try s.int(i &+ 1)
            if sec == nullValue { return .null }
            return .timestamp(seconds: sec, nanoseconds: Int32(truncatingIfNeeded: try n.int(i)))
        case .objectId:
            guard let b = try fixedBytes(node, i, 12) else { return .null }
            return .objectId(RealmObjectId(bytes: b))
        case .uuid:
            guard let b = try fixedBytes(node, i, 16) else { return .null }
            return .uuid(RealmUUID(bytes: b))
        case .decimal:
            return try decimal(node, i)
        case .link, .linkList:
            var v = try node.int(i)
            if e.linkPlusOne {
                if v == 0 { return .null }
                v = v &- 1
            }
            if v < 0 { return .null } // unresolved link (tombstone)
            return .link(className: e.linkTarget ?? "", key: v)
        case .typedLink:
            let t = try node.int(i &* 2)
            if t == 0 { return .null }
            let tk = Int64(UInt32(truncatingIfNeeded: t &- 1) & 0x7fff_ffff)
            let k = (try node.int(i &* 2 &+ 1)) &- 1
            return .link(className: className(tk) ?? "table \(tk)", key: k)
        case .mixed:
            return try mixed(node, i, e, depth: depth, budget: budget)
        case .backlink:
            return .list(try backlinkKeys(node, i, budget: budget).map { .link(className: e.linkTarget ?? "", key: $0) })
        case .oldTable:
            throw RealmFileError.corrupt("subtable columns (format < 10) are not supported")
        }
    }

    private func fixedBytes(_ node: RealmNode, _ i: Int, _ w: Int) throws -> [UInt8]? {
        if node.width == 0 { return nil }
        let block = w * 8 + 1
        let base = (i / 8) &* block
        let off = i % 8
        guard i >= 0, i < RealmLeafDecoder.fixedCount(node.count, w) else {
            throw RealmFileError.corrupt("index \(i) outside fixed-bytes leaf \(node.ref)")
        }
        let nullBits = try node.payloadByte(base)
        if (nullBits >> UInt8(off)) & 1 == 1 { return nil }
        return try node.payloadSlice(base &+ 1 &+ off &* w, w)
    }

    private func decimal(_ node: RealmNode, _ i: Int) throws -> RealmValue {
        guard i >= 0, i < node.count else { throw RealmFileError.corrupt("index \(i) outside decimal leaf") }
        if format < 24 {
            let lo = try bytes.le(node.payload &+ i &* 16, 8), hi = try bytes.le(node.payload &+ i &* 16 &+ 8, 8)
            let d = RealmDecimal128(low: lo, high: hi)
            return d.isNull ? .null : .decimal128(d)
        }
        let w = node.widthType == .multiply ? node.width : (node.count == 0 ? 0 : node.payloadBytes / max(node.count, 1))
        switch w {
        case 0:
            // Width 0: all null, or all zero when the context flag is set.
            return node.context ? .decimal128(RealmDecimal128(sign: false, coefficient: 0, exponent: 0)) : .null
        case 4:
            let v = UInt32(truncatingIfNeeded: try bytes.le(node.payload &+ i &* 4, 4))
            if v == 0x7c00_00aa { return .null }
            return .decimal128(RealmDecimal128(bid32: v))
        case 8:
            let v = try bytes.le(node.payload &+ i &* 8, 8)
            if v == 0x7c00_0000_0000_00aa { return .null }
            return .decimal128(RealmDecimal128(bid64: v))
        case 16:
            let lo = try bytes.le(node.payload &+ i &* 16, 8), hi = try bytes.le(node.payload &+ i &* 16 &+ 8, 8)
            let d = RealmDecimal128(low: lo, high: hi)
            return d.isNull ? .null : .decimal128(d)
        default:
            throw RealmFileError.corrupt("decimal leaf \(node.ref) has width \(w)")
        }
    }

    // MARK: Mixed

    private func mixed(_ node: RealmNode, _ i: Int, _ e: Element, depth: Int, budget: RealmWorkBudget) throws -> RealmValue {
        guard node.count >= 4, let composite = try node.child(0) else { throw RealmFileError.corrupt("mixed leaf \(node.ref) malformed") }
        let val = try composite.int(i)
        if val == 0 { return .null }
        let payloadIndex = Int((val >> 5) & 7)
        let intVal = val >> 8
        let type = Int(val & 0x1f) - 1
        func payloadArray(_ slot: Int) throws -> RealmNode {
            guard slot < node.count, let a = try node.child(slot) else { throw RealmFileError.corrupt("mixed leaf \(node.ref) lacks payload \(slot)") }
            return a
        }
        let idx = Int(truncatingIfNeeded: intVal)
        switch type {
        case 0:
            if payloadIndex != 0 { return .int(try payloadArray(1).int(idx)) }
            return .int(intVal)
        case 1: return .bool(intVal != 0)
        case 9: return .float(Float(bitPattern: UInt32(truncatingIfNeeded: try payloadArray(1).int(idx))))
        case 10: return .double(Double(bitPattern: UInt64(bitPattern: try payloadArray(1).int(idx))))
        case 2:
            guard let s = try RealmStrings.string(try payloadArray(3), idx) else { return .null }
            return .string(s)
        case 4:
            // Mixed keeps binaries in a string array: stored with the string terminator.
            guard let b = try RealmStrings.bytes(try payloadArray(3), idx, isString: true, enumKeys: nil) else { return .null }
            return .binary(b)
        case 15, 17:
            let strings = try payloadArray(3)
            guard let b = try RealmStrings.bytes(strings, idx, isString: true, enumKeys: nil) else { return .null }
            let n = type == 15 ? 12 : 16
            // The value is stored as a string of exactly n bytes (plus NUL in blob forms).
            guard b.count >= n else { throw RealmFileError.corrupt("mixed \(type == 15 ? "ObjectId" : "UUID") of \(b.count) bytes") }
            let v = Array(b.prefix(n))
            return type == 15 ? .objectId(RealmObjectId(bytes: v)) : .uuid(RealmUUID(bytes: v))
        case 8:
            let p = try payloadArray(2)
            let j = idx &* 2
            return .timestamp(seconds: try p.int(j), nanoseconds: Int32(truncatingIfNeeded: try p.int(j &+ 1)))
        case 11:
            let p = try payloadArray(2)
            let j = idx &* 2
            let d = RealmDecimal128(low: UInt64(bitPattern: try p.int(j)), high: UInt64(bitPattern: try p.int(j &+ 1)))
            return d.isNull ? .null : .decimal128(d)
        case 12:
            let k = try payloadArray(1).int(idx)
            return .link(className: e.linkTarget ?? "", key: k)
        case 16:
            let p = try payloadArray(2)
            let j = idx &* 2
            let tk = Int64(UInt32(truncatingIfNeeded: try p.int(j)))
            let k = try p.int(j &+ 1)
            return .link(className: className(tk) ?? "table \(tk)", key: k)
        case 19, 21:
            guard payloadIndex == 4 else { throw RealmFileError.corrupt("nested collection in mixed leaf \(node.ref) without a ref payload") }
            let refs = try payloadArray(4)
            let r = try refs.ref(idx)
            guard depth < RealmLeafDecoder.maxDepth else { throw RealmFileError.corrupt("nested collections deeper than \(RealmLeafDecoder.maxDepth)") }
            let inner = Element(type: .mixed, nullable: true)
            if type == 19 {
                guard let r else { return .list([]) }
                return .list(try listElements(r, inner, depth: depth + 1, budget: budget))
            }
            guard let r else { return .dictionary([]) }
            return .dictionary(try dictionaryEntries(r, keyType: 2, valueElement: inner, depth: depth + 1, budget: budget))
        default:
            throw RealmFileError.corrupt("mixed value of unknown type \(type) in leaf \(node.ref)")
        }
    }

    // MARK: B+trees and collections

    /// Calls `body` with each leaf of the B+tree at `ref`, in order.
    func forEachLeaf(_ ref: Int, depth: Int = 0, budget: RealmWorkBudget, _ body: (RealmNode) throws -> Void) throws {
        try budget.spend(1)
        guard depth < 16 else { throw RealmFileError.corrupt("B+tree at \(ref) deeper than 16 levels (a cycle?)") }
        let node = try RealmNode(bytes, ref: ref)
        if node.isInner {
            guard node.hasRefs, node.count >= 2 else { throw RealmFileError.corrupt("B+tree inner node \(ref) malformed") }
            for i in 1..<(node.count - 1) {
                guard let c = try node.ref(i) else { throw RealmFileError.corrupt("B+tree inner node \(ref) has a null child") }
                try forEachLeaf(c, depth: depth + 1, budget: budget, body)
            }
        } else {
            try body(node)
        }
    }

    func listElements(_ ref: Int, _ e: Element, depth: Int = 0, budget: RealmWorkBudget) throws -> [RealmValue] {
        var out: [RealmValue] = []
        try forEachLeaf(ref, budget: budget) { leaf in
            let n = try count(leaf, e)
            try checkLeafSize(n, leaf)
            try budget.spend(n)
            guard n >= 0, out.count &+ n <= RealmLeafDecoder.maxElements else { throw RealmFileError.corrupt("collection too large") }
            for i in 0..<n {
                let v = try element(leaf, i, e, depth: depth, budget: budget)
                if e.type == .link || e.type == .linkList, !e.linkPlusOne, v.isNull { continue } // unresolved
                out.append(v)
            }
        }
        return out
    }

    func dictionaryEntries(_ ref: Int, keyType: Int, valueElement: Element, depth: Int = 0, budget: RealmWorkBudget) throws -> [RealmDictionaryEntry] {
        let top = try RealmNode(bytes, ref: ref)
        if format < 23 && depth == 0 {
            // v21–22: a cluster tree per dictionary; column 0 = String keys, column 1 = Mixed values.
            var out: [RealmDictionaryEntry] = []
            try forEachClusterLeaf(ref, depth: 0, budget: budget) { leaf, n in
                try checkLeafSize(n, leaf)
                try budget.spend(n)
                guard leaf.count >= 3, let keys = try leaf.child(1), let values = try leaf.child(2) else {
                    throw RealmFileError.corrupt("legacy dictionary leaf \(leaf.ref) malformed")
                }
                for i in 0..<n {
                    let k = try RealmStrings.string(keys, i) ?? ""
                    out.append(RealmDictionaryEntry(key: k, value: try element(values, i, valueElement, depth: depth, budget: budget)))
                }
            }
            return out
        }
        guard top.hasRefs, top.count >= 2, let kr = try top.ref(0), let vr = try top.ref(1) else {
            if top.count >= 2, try top.ref(0) == nil { return [] }
            throw RealmFileError.corrupt("dictionary at \(ref) malformed")
        }
        let keyElement = Element(type: keyType == 0 ? .int : .string, nullable: false)
        let keys = try listElements(kr, keyElement, budget: budget)
        let values = try listElements(vr, valueElement, depth: depth, budget: budget)
        guard keys.count == values.count else { throw RealmFileError.corrupt("dictionary at \(ref) has \(keys.count) keys and \(values.count) values") }
        return zip(keys, values).map { k, v in
            if case let .string(s) = k { return RealmDictionaryEntry(key: s, value: v) }
            return RealmDictionaryEntry(key: k.description, value: v)
        }
    }

    /// Leaves of a (legacy dictionary) cluster tree with their object counts.
    private func forEachClusterLeaf(_ ref: Int, depth: Int, budget: RealmWorkBudget, _ body: (RealmNode, Int) throws -> Void) throws {
        try budget.spend(1)
        guard depth < 16 else { throw RealmFileError.corrupt("cluster tree at \(ref) too deep") }
        let node = try RealmNode(bytes, ref: ref)
        if node.isInner {
            guard node.count >= 3 else { throw RealmFileError.corrupt("cluster inner node \(ref) malformed") }
            for i in 3..<node.count {
                guard let c = try node.ref(i) else { continue }
                try forEachClusterLeaf(c, depth: depth + 1, budget: budget, body)
            }
        } else {
            try body(node, try RealmTable.leafCount(node))
        }
    }

    /// Origin object keys of backlink entry `i`: 0 = none, tagged = one key, ref = keys.
    func backlinkKeys(_ node: RealmNode, _ i: Int, budget: RealmWorkBudget) throws -> [Int64] {
        let v = try node.int(i)
        if v == 0 { return [] }
        if v & 1 == 1 { return [v >> 1] }
        var out: [Int64] = []
        try forEachLeaf(Int(v), budget: budget) { leaf in
            try checkLeafSize(leaf.count, leaf)
            try budget.spend(leaf.count)
            for j in 0..<leaf.count { out.append(try leaf.int(j)) }
        }
        return out
    }
}

/// A cap on the work one value may cost (nodes visited + elements decoded), so that a damaged file
/// whose refs form a cycle or a shared sub-tree explosion ends in an error instead of a hang.
final class RealmWorkBudget {
    private(set) var remaining: Int
    init(_ limit: Int = 1 << 24) { remaining = limit }
    func spend(_ n: Int) throws {
        remaining -= max(n, 0)
        if remaining < 0 { throw RealmFileError.corrupt("a value needs more than \(1 << 24) node visits (a cycle of refs?)") }
    }
}
