import Foundation

/// A property that holds a managed object or collection across threads (RealmSwift's
/// `@ThreadSafe`): it keeps a thread-safe reference and the realm's configuration, and each
/// read resolves it on the reading thread's realm (nil when it was deleted or never set).
///
/// ```swift
/// final class Worker { @ThreadSafe var dog: Dog? }
/// worker.dog = dog                       // on the realm's thread
/// DispatchQueue.global().async { print(worker.dog?.name) }   // resolved on that thread
/// ```
/// Reading opens the realm of the stored configuration on the current thread, so use it from
/// threads (or queues through `Realm(configuration:queue:)` semantics) that may open one.
@propertyWrapper
public final class ThreadSafe<T: ThreadConfined>: @unchecked Sendable {
    private let lock = NSLock()
    private var reference: ThreadSafeReference<T>?
    private var configuration: Realm.Configuration?

    /// Holds `wrappedValue` (which must be managed, or nil).
    public init(wrappedValue: T?) { store(wrappedValue) }

    private func store(_ value: T?) {
        lock.lock(); defer { lock.unlock() }
        guard let value, let realm = value.realm else {
            if value != nil { strataProgrammerError("Only managed objects and collections can be held by @ThreadSafe") }
            reference = nil; configuration = nil; return
        }
        reference = ThreadSafeReference(to: value)
        configuration = realm.configuration
    }

    /// The value resolved on the current thread's realm.
    public var wrappedValue: T? {
        get {
            lock.lock()
            let ref = reference, config = configuration
            lock.unlock()
            guard let ref, let config else { return nil }
            do { return try Realm(configuration: config).resolve(ref) } catch {
                strataProgrammerError("@ThreadSafe could not open its realm on this thread: \(error)")
            }
        }
        set { store(newValue) }
    }
}
