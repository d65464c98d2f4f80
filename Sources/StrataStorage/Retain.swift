import CStrataSupport

/// Takes one more strong reference to the native Swift object at `object` unless its deinit
/// has begun (the Swift runtime's `swift_tryRetain`): true when taken, to be balanced with
/// `Unmanaged.takeRetainedValue` or `release`. For registries that hold objects by address
/// instead of by weak reference (a weak reference gives the object a side table, which moves
/// every later retain and release of it to the runtime's slow path). The caller must know that
/// the memory is still the object's (the registry removes it in the object's deinit, under the
/// lock the caller holds).
package func strataTryRetain(_ object: UnsafeMutableRawPointer) -> Bool { strata_try_retain(object) != 0 }
