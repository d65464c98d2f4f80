import Foundation

/// How the unmanaged value of one property type is kept in an `_UnmanagedStorage` slot: the
/// operations a slot of type `T` needs when only its property index is known (values given as
/// `Any`, declared defaults, encoding at `realm.add`). One subclass per stored type.
class _SlotKind {
    /// Size and alignment of the slot.
    let size: Int, alignment: Int
    /// True when the slot needs no destruction (Int, Double, Bool…).
    let isTrivial: Bool
    /// The common stored types, read from the slot without a call (`encode` otherwise).
    enum Direct { case none, int, double, bool, string }
    let direct: Direct
    init(size: Int, alignment: Int, isTrivial: Bool, direct: Direct) {
        self.size = size; self.alignment = alignment; self.isTrivial = isTrivial; self.direct = direct
    }
    func initialize(_ p: UnsafeMutableRawPointer, from any: Any) { fatalError("abstract") }
    func assign(_ p: UnsafeMutableRawPointer, from any: Any) { fatalError("abstract") }
    func destroy(_ p: UnsafeMutableRawPointer) { fatalError("abstract") }
    func toAny(_ p: UnsafeRawPointer) -> Any { fatalError("abstract") }
    /// The stored `Value` of the slot (only for single values: `_StrataValue` types).
    func encode(_ p: UnsafeRawPointer, _ ctx: _StrataContext) throws -> Value { fatalError("abstract") }
    /// The type's default (no declared default).
    func defaultAny() -> Any { fatalError("abstract") }

    /// The slot kind of `type`.
    static func of(_ type: any _Persistable.Type) -> _SlotKind {
        if let sv = type as? any (_Persistable & _StrataValue).Type { return valueKind(sv) }
        return collectionKind(type)
    }
    private static func valueKind<T: _Persistable & _StrataValue>(_: T.Type) -> _SlotKind { _ValueSlotKind<T>() }
    private static func collectionKind<T: _Persistable>(_: T.Type) -> _SlotKind { _TypedSlotKind<T>() }
}

class _TypedSlotKind<T: _Persistable>: _SlotKind {
    init() {
        let direct: Direct = T.self == Int.self ? .int : T.self == Double.self ? .double
            : T.self == Bool.self ? .bool : T.self == String.self ? .string : .none
        super.init(size: MemoryLayout<T>.size, alignment: MemoryLayout<T>.alignment, isTrivial: _isPOD(T.self), direct: direct)
    }
    override func initialize(_ p: UnsafeMutableRawPointer, from any: Any) { p.initializeMemory(as: T.self, to: any as! T) }
    override func assign(_ p: UnsafeMutableRawPointer, from any: Any) { p.assumingMemoryBound(to: T.self).pointee = any as! T }
    override func destroy(_ p: UnsafeMutableRawPointer) { p.assumingMemoryBound(to: T.self).deinitialize(count: 1) }
    override func toAny(_ p: UnsafeRawPointer) -> Any { p.assumingMemoryBound(to: T.self).pointee }
    override func defaultAny() -> Any { T._strataDefault() }
}

final class _ValueSlotKind<T: _Persistable & _StrataValue>: _TypedSlotKind<T> {
    override func encode(_ p: UnsafeRawPointer, _ ctx: _StrataContext) throws -> Value {
        try p.assumingMemoryBound(to: T.self).pointee._strataEncode(ctx)
    }
}

/// Where the slots of one class's unmanaged values are: per property an offset into the
/// storage's buffer and its kind; after the slots, one "is set" byte per property.
final class _UnmanagedLayout: @unchecked Sendable {
    let kinds: [_SlotKind]
    /// Offset of each property's slot (a buffer that lives as long as the layout).
    let offsets: UnsafeMutablePointer<Int>
    /// Offset of the "is set" bytes.
    let flagsOffset: Int
    let byteCount: Int, alignment: Int
    /// Properties whose slot needs destruction.
    let nonTrivial: [Int]
    /// `kinds[i].direct`, in a buffer (no array access per value).
    let direct: UnsafeMutablePointer<_SlotKind.Direct>

    init(_ types: [any _Persistable.Type]) {
        let kinds = types.map { _SlotKind.of($0) }
        self.kinds = kinds
        offsets = .allocate(capacity: max(1, kinds.count))
        var at = 0, align = 8
        for (i, k) in kinds.enumerated() {
            let a = max(1, k.alignment)
            at = (at + a - 1) / a * a
            offsets[i] = at
            at += max(k.size, 0)
            align = max(align, a)
        }
        flagsOffset = at
        byteCount = max(1, at + kinds.count)
        alignment = align
        nonTrivial = kinds.indices.filter { !kinds[$0].isTrivial }
        direct = .allocate(capacity: max(1, kinds.count))
        for (i, k) in kinds.enumerated() { direct[i] = k.direct }
    }
    deinit { offsets.deallocate(); direct.deallocate() }
}

/// The values of an unmanaged object, each in a slot of its own type (no boxing through
/// `Any`): written by the `@Persisted` setters, read by the getters and by `realm.add`, which
/// encodes them straight into the row. Dropped once the object is managed.
@usableFromInline
final class _UnmanagedStorage {
    @usableFromInline let base: UnsafeMutableRawPointer
    @usableFromInline let offsets: UnsafeMutablePointer<Int>
    @usableFromInline let flags: UnsafeMutablePointer<UInt8>
    let layout: _UnmanagedLayout

    init(_ layout: _UnmanagedLayout) {
        self.layout = layout
        base = .allocate(byteCount: layout.byteCount, alignment: layout.alignment)
        offsets = layout.offsets
        flags = (base + layout.flagsOffset).bindMemory(to: UInt8.self, capacity: layout.kinds.count)
        flags.initialize(repeating: 0, count: layout.kinds.count)
    }

    deinit {
        for i in layout.nonTrivial where flags[i] != 0 { layout.kinds[i].destroy(base + offsets[i]) }
        base.deallocate()
    }

    @inlinable @inline(__always) func isSet(_ index: Int) -> Bool { flags[index] != 0 }

    /// The value of property `index` (the caller knows its type), when set.
    @inlinable @inline(__always)
    func get<V>(_ index: Int, as: V.Type) -> V? {
        guard flags[index] != 0 else { return nil }
        return (base + offsets[index]).assumingMemoryBound(to: V.self).pointee
    }

    /// Sets property `index` (`V` is its declared type).
    @inlinable @inline(__always)
    func set<V>(_ index: Int, _ value: V) {
        let p = base + offsets[index]
        if flags[index] != 0 {
            p.assumingMemoryBound(to: V.self).pointee = value
        } else {
            p.initializeMemory(as: V.self, to: value)
            flags[index] = 1
        }
    }

    /// True when every property has a value.
    var isComplete: Bool {
        for i in 0..<layout.kinds.count where flags[i] == 0 { return false }
        return true
    }

    /// The value of property `index` as `Any`, when set.
    func getAny(_ index: Int) -> Any? {
        flags[index] != 0 ? layout.kinds[index].toAny(base + offsets[index]) : nil
    }

    /// Sets property `index` from a value of its declared type given as `Any`.
    func setAny(_ index: Int, _ value: Any) {
        let p = base + offsets[index]
        if flags[index] != 0 { layout.kinds[index].assign(p, from: value) } else {
            layout.kinds[index].initialize(p, from: value)
            flags[index] = 1
        }
    }

    /// Property `index`, set, of declared type Int, Double, Bool or String (`_SlotKind.direct`).
    @inline(__always) func int(_ index: Int) -> Int { UnsafeRawPointer(base + offsets[index]).load(as: Int.self) }
    @inline(__always) func double(_ index: Int) -> Double { UnsafeRawPointer(base + offsets[index]).load(as: Double.self) }
    @inline(__always) func bool(_ index: Int) -> Bool { UnsafeRawPointer(base + offsets[index]).load(as: Bool.self) }
    @inline(__always) func string(_ index: Int) -> String { (base + offsets[index]).assumingMemoryBound(to: String.self).pointee }

    /// The stored value of property `index` (set; a single value). `ctx` is asked for only by
    /// types other than Int, Double, Bool and String.
    @inline(__always)
    func encode(_ index: Int, _ ctx: () -> _StrataContext) throws -> Value {
        let p = UnsafeRawPointer(base + offsets[index])
        switch layout.direct[index] {
        case .int: return .int(Int64(p.load(as: Int.self)))
        case .double: return .double(p.load(as: Double.self))
        case .bool: return .bool(p.load(as: Bool.self))
        case .string: return .string(p.assumingMemoryBound(to: String.self).pointee)
        case .none: return try layout.kinds[index].encode(p, ctx())
        }
    }
}
