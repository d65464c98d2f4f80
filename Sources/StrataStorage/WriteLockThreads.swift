#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Which thread of this process holds the write lock of each file (by lock file path, so that
/// several handles of one file count as one): `beginWrite` on the holding thread throws
/// `StorageError.writeAlreadyOpenOnThisThread` instead of waiting for itself. The thread that
/// took the lock is the holder until the transaction ends (wherever it ends). Threads are told
/// apart by a number given once per thread and never reused (a `pthread_t` is reused by later
/// threads).
enum WriteLockThreads {
    private static let mutex = NSLock()
    nonisolated(unsafe) private static var holders: [String: UInt] = [:]
    nonisolated(unsafe) private static var nextID: UInt = 1
    private static let idKey: pthread_key_t = {
        var k = pthread_key_t()
        pthread_key_create(&k, nil)
        return k
    }()

    /// The calling thread's number.
    private static func currentThread() -> UInt {
        if let p = pthread_getspecific(idKey) { return UInt(bitPattern: p) }
        mutex.lock(); let id = nextID; nextID += 1; mutex.unlock()
        pthread_setspecific(idKey, UnsafeRawPointer(bitPattern: id))
        return id
    }
    static func isHeldByCurrentThread(_ lockPath: String) -> Bool {
        let me = currentThread()
        mutex.lock(); defer { mutex.unlock() }
        return holders[lockPath] == me
    }
    static func taken(_ lockPath: String) {
        let me = currentThread()
        mutex.lock(); holders[lockPath] = me; mutex.unlock()
    }
    static func released(_ lockPath: String) {
        mutex.lock(); holders[lockPath] = nil; mutex.unlock()
    }
}
