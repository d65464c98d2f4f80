import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A value behind a lock, for the few process-wide registries of the API layer.
final class Locked<T>: @unchecked Sendable {
    private var value: T
    private let lock = NSLock()
    init(_ value: T) { self.value = value }
    func with<R>(_ body: (inout T) throws -> R) rethrows -> R {
        lock.lock(); defer { lock.unlock() }
        return try body(&value)
    }
}

/// A per-thread integer (pthread key), cheap enough for property-wrapper initializers.
final class ThreadLocalInt: @unchecked Sendable {
    private var key = pthread_key_t()
    init() { pthread_key_create(&key, nil) }
    var value: Int {
        get { Int(bitPattern: pthread_getspecific(key)) }
        set { pthread_setspecific(key, UnsafeRawPointer(bitPattern: newValue)) }
    }
}

/// A weak reference usable in registries.
struct Weak<T: AnyObject> { weak var value: T? }

/// Misuse that RealmSwift treats as a programmer error: stops the program with a precise message.
func strataProgrammerError(_ message: String, file: StaticString = #file, line: UInt = #line) -> Never {
    preconditionFailure("Strata: " + message, file: file, line: line)
}

/// Runs a throwing read or write of the storage layers; an error there (a deleted object, a
/// damaged file) becomes a trap with the error's message, as in RealmSwift's accessors.
@inline(__always)
func strataTry<R>(_ what: @autoclosure () -> String = "", _ body: () throws -> R) -> R {
    do { return try body() } catch let e as ObjectError {
        if case .noSuchObject = e { strataProgrammerError("Object has been deleted or invalidated (\(e))") }
        strataProgrammerError("\(e)")
    } catch { strataProgrammerError("\(error)") }
}

/// The identity of the current thread.
@inline(__always) func currentThreadID() -> pthread_t { pthread_self() }
