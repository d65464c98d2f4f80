import Foundation

/// What a `ThreadSafeReference` carries: the class, the key, and for results their pipeline.
public struct _Handover: @unchecked Sendable {
    let className: String
    let key: ObjKey
    let base: ResultsBase?
    let stages: [any ResultsStage]
    let property: String?
    /// For type-erased collections (`AnyRealmCollection`): rebuilds the value on the target realm.
    var anyResolver: ((_StrataContext) -> Any?)? = nil
}

/// Things confined to a realm's thread: objects, results, collections.
public protocol ThreadConfined {
    /// The realm (nil when unmanaged).
    var realm: Realm? { get }
    /// True for frozen snapshots (they need no handover: pass them as they are).
    var isFrozen: Bool { get }
    func _strataHandover() -> (_Handover, UInt64)
    static func _strataResolve(_ h: _Handover, in ctx: _StrataContext) -> Self?
}

/// Passes a managed object or results to another thread (RealmSwift's `ThreadSafeReference`):
/// create it on the source thread, resolve it with `realm.resolve(_:)` on the target thread
/// (the target realm advances to at least the source's version).
public struct ThreadSafeReference<Confined: ThreadConfined>: Sendable {
    let handover: _Handover
    let version: UInt64
    /// A reference to `threadConfined` (which must be managed).
    public init(to threadConfined: Confined) {
        guard threadConfined.realm != nil else { strataProgrammerError("Cannot construct a ThreadSafeReference to an unmanaged object") }
        (handover, version) = threadConfined._strataHandover()
    }
}

extension Object: ThreadConfined {
    public func _strataHandover() -> (_Handover, UInt64) {
        _rlmRequireValid()
        return (_Handover(className: _rlmClassInfo.className, key: _rlmKey, base: nil, stages: [], property: nil), _rlmCore!.read { $0.version })
    }
    public static func _strataResolve(_ h: _Handover, in ctx: _StrataContext) -> Self? {
        let core = ctx.core!
        guard core.read({ (try? $0.exists(h.className, h.key)) ?? false }) else { return nil }
        return core.makeObject(Self.self, key: h.key)
    }

    /// An immutable copy of this object at the realm's current version, readable from any thread.
    public func freeze() -> Self {
        guard let c = _rlmCore else { strataProgrammerError("Cannot freeze an unmanaged object") }
        _rlmRequireValid()
        return c.frozenCore().makeObject(Self.self, key: _rlmKey)
    }
    /// The live object on the current thread's realm (nil when it was deleted).
    public func thaw() -> Self? {
        guard let c = _rlmCore else { return self }
        let live = c.coordinator.core(for: .currentThread())
        guard live.read({ (try? $0.exists(_rlmClassInfo.className, _rlmKey)) ?? false }) else { return nil }
        return live.makeObject(Self.self, key: _rlmKey)
    }
}

extension Results: ThreadConfined {
    public func _strataHandover() -> (_Handover, UInt64) {
        core.requireValid()
        if let v = valueCore { return valueHandover(v) }
        return (_Handover(className: core.className, key: 0, base: core.base, stages: core.stages, property: nil), core.core.read { $0.version })
    }
    public static func _strataResolve(_ h: _Handover, in ctx: _StrataContext) -> Results<Element>? {
        if let resolve = h.anyResolver { return resolve(ctx) as? Results<Element> }
        let core = ctx.core!
        return Results(core: core, className: h.className, base: h.base ?? .all, stages: h.stages)
    }
}
