import Foundation

// `Results` of primitive values (RealmSwift's `Results<Int>`, `Results<String>`, …): a live
// view of a list or set property of values, with the query module's filter / sort / distinct
// applied as `ValueResultsStage`s. Each read evaluates the property at the realm's current
// version (cached until the realm's next change).

/// One step of results of values: the query module's filter, sort or distinct over the
/// elements (as stored values).
package protocol ValueResultsStage: Sendable {
    /// The values that pass, in result order; `values` is the previous stage's output.
    func apply(to values: [Value]) throws -> [Value]
    /// A short description (`filter(self > 2)`), shown in `Results.description`.
    var stageDescription: String { get }
}

/// The core of `Results` of values: the list or set property they come from and the stages.
/// A subclass of `ResultsCore` so that `Results` keeps one stored core; it overrides nothing.
final class ValueResultsCore: ResultsCore {
    let owner: CollectionOwner
    let valueStages: [any ValueResultsStage]
    private var cachedValues: [Value]?
    private var cachedValuesGeneration = -1

    init(owner: CollectionOwner, stages: [any ValueResultsStage]) {
        self.owner = owner
        valueStages = stages
        super.init(core: owner.core, className: owner.className, base: .list(owner.className, owner.key, owner.property), stages: [],
                   epoch: owner.epoch)
    }

    /// The stored values after every stage, at the transaction's version.
    func evaluateValues(_ txn: DBTransaction) throws -> [Value] {
        if cachedValuesGeneration == core.generationValue, let c = cachedValues { return c }
        var vs = try txn.list(owner.className, owner.key, owner.property)
        for s in valueStages { vs = try s.apply(to: vs) }
        cachedValues = vs; cachedValuesGeneration = core.generationValue
        return vs
    }

    func storedValues() -> [Value] { requireValid(); return core.read { txn in strataTry { try evaluateValues(txn) } } }
    func valueCount() -> Int { storedValues().count }

    func elements<E: _StrataValue>() -> [E] {
        let ctx = _StrataContext(core: core)
        return storedValues().map { E._strataDecode($0, ctx) }
    }

    func element<E: _StrataValue>(at i: Int) -> E {
        let vs = storedValues()
        guard i >= 0 && i < vs.count else { strataProgrammerError("Index \(i) is out of bounds (must be less than \(vs.count))") }
        return E._strataDecode(vs[i], _StrataContext(core: core))
    }

    /// True when the object owning the list or set was deleted (or the realm invalidated since).
    var isInvalidated: Bool { !isCurrent || !core.read { (try? $0.exists(owner.className, owner.key)) ?? false } }

    func rebound(to other: RealmCore) -> ValueResultsCore {
        ValueResultsCore(owner: CollectionOwner(core: other, className: owner.className, key: owner.key, property: owner.property,
                                                isEmbeddedTarget: owner.isEmbeddedTarget),
                         stages: valueStages)
    }

    func appending(_ stage: any ValueResultsStage) -> ValueResultsCore {
        requireValid()
        return ValueResultsCore(owner: owner, stages: valueStages + [stage])
    }

    var stagesDescription: String {
        valueStages.isEmpty ? "" : "[" + valueStages.map(\.stageDescription).joined(separator: ", ") + "]"
    }
}

/// What a collection observer of results of values watches.
struct ValueResultsSource<E: RealmCollectionValue>: CollectionSource {
    let results: Results<E>
    var collection: Results<E> { results.current }
    var uniqueElements: Bool { false }
    func elements(_ txn: DBTransaction) throws -> [Value] { try results.valueCore!.evaluateValues(txn) }
    func rebound(to core: RealmCore) -> ValueResultsSource<E> { ValueResultsSource(results: results.rebound(to: core)) }
}

// MARK: - query module seam

extension Results {
    /// For the query module: true for results of values (of a list or set property).
    package var _isValueResults: Bool { valueCore != nil }

    /// For the query module: the list or set property the values come from.
    package var _valueSourceProperty: PropertySchema {
        let o = valueCore!.owner
        return core.core.read { txn in
            guard let p = txn.schema[o.className]?[o.property] else {
                strataProgrammerError("'\(o.property)' is not a property of '\(o.className)' in this realm's schema")
            }
            return p
        }
    }

    /// For the query module: new results of values with `stage` after the existing stages.
    package func _appendingValueStage(_ stage: any ValueResultsStage) -> Results<Element> {
        Results(valueCore: valueCore!.appending(stage))
    }

    /// Handover of results of values: the owner and property, rebuilt with the same stages on
    /// the receiving realm (nil there when the owning object was deleted).
    func valueHandover(_ v: ValueResultsCore) -> (_Handover, UInt64) {
        var h = _Handover(className: v.owner.className, key: v.owner.key, base: nil, stages: [], property: v.owner.property)
        let stages = v.valueStages, owner = v.owner
        h.anyResolver = { ctx in
            guard let core = ctx.core else { return nil }
            let c = ValueResultsCore(owner: CollectionOwner(core: core, className: owner.className, key: owner.key, property: owner.property,
                                                            isEmbeddedTarget: owner.isEmbeddedTarget), stages: stages)
            return c.isInvalidated ? nil : Results<Element>(valueCore: c)
        }
        return (h, core.core.read { $0.version })
    }
}

extension RealmCollection {
    /// For the query module: the collection's values as `Results` (a `Results` of values, a
    /// managed `List` or `MutableSet` of values, or an `AnyRealmCollection` of one of them).
    /// Traps for collections of objects (use the members constrained to `Element: ObjectBase`).
    package var _strataValueResults: Results<Element> {
        if Element.self is ObjectBase.Type {
            strataProgrammerError("\(Self.self) holds objects: filter or sort it where Element is known to be an ObjectBase (by key path), not as values")
        }
        if let r = self as? Results<Element> { return r }
        let owner: CollectionOwner?
        if let l = self as? List<Element> { owner = l.owner }
        else if let s = self as? MutableSet<Element> { owner = s.owner }
        else if let a = self as? AnyRealmCollection<Element> { return a._baseValueResults }
        else { strataProgrammerError("\(Self.self) cannot be viewed as Results") }
        guard let owner else {
            strataProgrammerError("Only managed lists and sets of values can be filtered or sorted into Results (add the object to a realm first)")
        }
        return Results(valueCore: ValueResultsCore(owner: owner, stages: []))
    }
}

extension AnyRealmCollection {
    /// The wrapped collection's values as `Results`.
    var _baseValueResults: Results<Element> {
        func open<C: RealmCollection>(_ c: C) -> Results<Element> where C.Element == Element { c._strataValueResults }
        return open(base)
    }
}
