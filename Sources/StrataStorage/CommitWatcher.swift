import Foundation
import Dispatch

/// A thread that sleeps on the lock file's commit futex and calls observers with the newest
/// published version after every commit (by any process). Idle, it uses no CPU: the futex wait
/// has a 1 s timeout only as a safety net. `stop()` wakes it and waits until it has exited, so
/// the lock file mapping can be released safely afterwards.
final class CommitWatcher: @unchecked Sendable {
    private let lock: LockFile
    private let mutex = NSLock()
    private var observers: [UInt64: @Sendable (UInt64) -> Void] = [:]
    /// Called when the live participants (handles with the file open) change.
    private var participantObservers: [UInt64: @Sendable () -> Void] = [:]
    /// The live participants' slots at the last check (nil: not checked yet).
    private var lastParticipants: [Int]?
    private var nextID: UInt64 = 1
    private var stopping = false
    private let exited = DispatchSemaphore(value: 0)
    /// The watcher thread (set when it starts): `stop()` called from an observer on it must not
    /// wait for the thread to exit.
    private var watcherThread: pthread_t?

    init(lock: LockFile) {
        self.lock = lock
        // Captured before the thread starts: a commit between `add` and the thread's first
        // instruction must still be reported.
        let seen = lock.commitSequence, last = lock.latestVersion
        let t = Thread { [self] in self.run(seen: seen, lastVersion: last) }
        t.name = "strata-commit-watcher"
        t.start()
    }

    func add(_ cb: @escaping @Sendable (UInt64) -> Void) -> UInt64 {
        mutex.lock(); defer { mutex.unlock() }
        let id = nextID; nextID += 1
        observers[id] = cb
        return id
    }

    /// Adds a callback for changes of the participants, checked at each wake-up (every commit,
    /// and the 1 s timeout): a second browser opening the file, an import ending.
    func addParticipantObserver(_ cb: @escaping @Sendable () -> Void) -> UInt64 {
        mutex.lock(); defer { mutex.unlock() }
        let id = nextID; nextID += 1
        participantObservers[id] = cb
        // The baseline is taken now: a handle opened right after this call is a change.
        if lastParticipants == nil { lastParticipants = lock.participants().filter(\.isAlive).map(\.slot) }
        return id
    }

    func remove(_ id: UInt64) { mutex.lock(); observers[id] = nil; participantObservers[id] = nil; mutex.unlock() }

    /// Calls the participant observers when the live participants differ from the last check.
    private func checkParticipants() {
        mutex.lock(); let cbs = Array(participantObservers.values); mutex.unlock()
        guard !cbs.isEmpty else { return }
        let now = lock.participants().filter(\.isAlive).map(\.slot)
        mutex.lock()
        let changed = lastParticipants.map { $0 != now } ?? false
        lastParticipants = now
        mutex.unlock()
        if changed { for cb in cbs { cb() } }
    }

    private func run(seen initialSeen: UInt32, lastVersion initialVersion: UInt64) {
        mutex.lock(); watcherThread = pthread_self(); mutex.unlock()
        var seen = initialSeen
        var lastVersion = initialVersion
        while true {
            mutex.lock(); let stop = stopping; mutex.unlock()
            if stop { break }
            lock.waitForCommit(seen: seen, timeoutMs: 1000)
            checkParticipants()
            let now = lock.commitSequence
            if now == seen { continue }
            seen = now
            let v = lock.latestVersion
            if v == lastVersion { continue }
            lastVersion = v
            mutex.lock(); let cbs = Array(observers.values); let stop2 = stopping; mutex.unlock()
            if stop2 { break }
            for cb in cbs { cb(v) }
        }
        exited.signal()
    }

    /// Stops the thread and waits until it has exited. Called from an observer on the watcher
    /// thread itself (the last owner of the handle was released there), it only marks the
    /// watcher stopped: the thread exits when the observer returns, without touching the lock
    /// file again (waiting there would deadlock the thread and leave the handle open for good).
    func stop() {
        mutex.lock()
        stopping = true
        let onWatcherThread = watcherThread.map { pthread_equal($0, pthread_self()) != 0 } ?? false
        mutex.unlock()
        if onWatcherThread { return }
        lock.poke()
        exited.wait()
    }
}
