/// Something opening a file found that the user must hear about although the file opened: a
/// meta slot newer than the version opened that could not be used. `Store.openWarnings` lists
/// them; `Store.check()` reports them (a damaged slot as a problem, a cut-short commit as a note).
public enum StoreWarning: Sendable, Equatable, CustomStringConvertible {
    /// The newer meta slot has the Strata magic and claims a higher version than the one opened,
    /// but fails its checksum: a damaged byte in the slot (a torn write of a slot is not expected:
    /// a slot fits one sector). The file opened at the older version; the newer commit is lost
    /// unless the file is restored from a copy. Compaction is refused (it would make the loss
    /// permanent).
    case damagedMetaSlot(slot: Int, claimedVersion: UInt64, openedVersion: UInt64)
    /// The newer meta slot is intact but the blocks its one-sync commit lists do not match their
    /// checksum: the commit did not reach the disk whole (a power loss while it was written,
    /// before it was acknowledged: normal), or those blocks were damaged since.
    case incompleteCommit(slot: Int, version: UInt64, openedVersion: UInt64)

    /// Whether this is damage (`check` lists it as a problem) rather than a normal outcome.
    public var isDamage: Bool {
        if case .damagedMetaSlot = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .damagedMetaSlot(let s, let claimed, let opened):
            return "meta slot \(s) claims version \(claimed) and fails its checksum; opened at version \(opened) (the newer commit is lost unless you restore the file from a copy)"
        case .incompleteCommit(let s, let v, let opened):
            return "meta slot \(s) holds version \(v), whose blocks do not match the checksum it lists: that commit did not reach the disk whole (power loss while it was written, never acknowledged) or the file was damaged since; opened at version \(opened)"
        }
    }
}

extension Store {
    /// The meta-slot findings for a handle at `openedVersion`: read the slots as they are now.
    /// Call only while no writer can be writing a slot (holding the writer lock, or see
    /// `settledMetaSlotWarnings`), or a slot being written could look damaged.
    func metaSlotWarnings(openedVersion: UInt64) -> [StoreWarning] {
        var out: [StoreWarning] = []
        for slot in 0..<2 {
            let p = UnsafeRawBufferPointer(start: map.base + Int(MetaSlot.slotStride) * slot, count: Int(MetaSlot.slotStride))
            // A slot counts as claiming a version when its magic is intact, or when its magic is
            // what is damaged (format version and page size still in place).
            let base = p.baseAddress!
            let magicDamaged = Array(p[0..<8]) != MetaSlot.magic
            if magicDamaged && !(MetaSlot.readableFormats.contains(base.getLE(8, as: UInt32.self)) && base.getLE(12, as: UInt32.self) == MetaSlot.pageSize) { continue }
            switch magicDamaged ? .damaged : MetaSlot.decode(p) {
            case .damaged:
                let claimed = p.baseAddress!.getLE(16, as: UInt64.self)
                if claimed > openedVersion { out.append(.damagedMetaSlot(slot: slot, claimedVersion: claimed, openedVersion: openedVersion)) }
            case .valid(let m) where m.version > openedVersion && !m.unsyncedRuns.isEmpty:
                out.append(.incompleteCommit(slot: slot, version: m.version, openedVersion: openedVersion))
            default: break
            }
        }
        return out
    }

    /// `metaSlotWarnings` for the newest version, read while no writer of any process can be
    /// writing a slot (the writer lock is tried, not waited for). Empty when a writer is busy:
    /// a slot it is writing cannot be told from a damaged one.
    func settledMetaSlotWarnings() -> [StoreWarning] {
        guard let lock else { return (try? newestMeta()).map { metaSlotWarnings(openedVersion: $0.version) } ?? [] }
        guard writerGate.wait(timeout: .now()) == .success else { return [] }
        defer { writerGate.signal() }
        guard lock.tryLockWriter() else { return [] }
        defer { lock.unlockWriter() }
        guard let m = try? newestMeta() else { return [] }
        return metaSlotWarnings(openedVersion: m.version)
    }

    /// Throws when the file has a damaged newer meta slot: compacting would drop the evidence
    /// and make the older version the only one.
    func refuseDamagedMetaSlot(_ warnings: [StoreWarning]) throws {
        if let w = warnings.first(where: \.isDamage) {
            throw StorageError.corrupted(path: path, detail: "\(w); compaction refused, as it would make that loss permanent")
        }
    }
}

extension StoreWarning {
    /// The version the handle opened at.
    public var openedVersion: UInt64 {
        switch self {
        case .damagedMetaSlot(_, _, let v), .incompleteCommit(_, _, let v): return v
        }
    }
}
