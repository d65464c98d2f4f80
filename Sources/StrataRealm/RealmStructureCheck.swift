/// The result of `RealmFile.checkStructure()`, in the spirit of realm-core's trawler: every ref
/// in bounds and pointing at a valid node header, no node referenced twice, no live node inside
/// the free list.
package struct RealmStructureReport: Sendable {
    /// Live nodes reached from the top array.
    package let nodeCount: Int
    /// Bytes of all live nodes (headers + payload rounded to 8).
    package let liveBytes: Int
    /// Bytes in the free list.
    package let freeBytes: Int
    /// Bytes neither live nor free (header and footer included); streaming files have no free list.
    package var unaccountedBytes: Int { max(0, fileSize - liveBytes - freeBytes - 24) }
    package let fileSize: Int
    /// Problems found, one line each; empty when the file is sound.
    package let problems: [String]
    package var isSound: Bool { problems.isEmpty }
}

extension RealmFile {
    /// Walks every node reachable from the top array (iteratively; each node once) and checks it.
    package func checkStructure() -> RealmStructureReport {
        var problems: [String] = []
        func problem(_ s: String) { if problems.count < 1000 { problems.append(s) } }
        do { try verifyEncryptedPages() } catch { problem("\(error)") }
        var seen = Set<Int>()
        var live: [(Int, Int)] = []
        var liveBytes = 0
        var stack: [(ref: Int, parent: Int)] = [(topRef, 0)]
        while let (ref, parent) = stack.popLast() {
            if !seen.insert(ref).inserted {
                problem("node \(ref) is referenced twice (again from \(parent))")
                continue
            }
            let node: RealmNode
            do {
                node = try RealmNode(bytes, ref: ref)
            } catch {
                problem("ref \(ref) from node \(parent): \(error)")
                continue
            }
            if (try? bytes.bytes(ref, 4)) != [0x41, 0x41, 0x41, 0x41] {
                problem("node \(ref) (from \(parent)) lacks the \"AAAA\" header checksum")
            }
            live.append((ref, node.byteSize))
            liveBytes &+= node.byteSize
            guard node.hasRefs, node.width > 0 else { continue } // width 0: every element is 0, no refs
            for i in 0..<node.count {
                let v = node.uncheckedInt(i)
                if v == 0 || v & 1 == 1 { continue }
                guard v > 0, v < Int64(bytes.count) else {
                    problem("node \(ref) element \(i) holds ref \(v), outside the file (\(bytes.count) bytes)")
                    continue
                }
                stack.append((Int(v), ref))
            }
        }
        // Free list (top slots 3 and 4): extents must not overlap each other or live nodes.
        let extents = freeExtents()
        var freeBytes = 0
        for e in extents { freeBytes &+= e.length }
        let sortedFree = extents.sorted { $0.position < $1.position }
        for (a, b) in zip(sortedFree, sortedFree.dropFirst()) where a.position &+ a.length > b.position {
            problem("free extents at \(a.position) (\(a.length) bytes) and \(b.position) overlap")
        }
        if !sortedFree.isEmpty {
            for (ref, size) in live {
                // The last free extent starting before the node's end.
                var lo = 0, hi = sortedFree.count - 1, found = -1
                while lo <= hi {
                    let mid = (lo + hi) / 2
                    if sortedFree[mid].position < ref &+ size { found = mid; lo = mid + 1 } else { hi = mid - 1 }
                }
                if found >= 0, sortedFree[found].position &+ sortedFree[found].length > ref {
                    problem("live node \(ref) (\(size) bytes) lies inside the free extent at \(sortedFree[found].position)")
                }
            }
        }
        for e in extents where e.position < 0 || e.length < 0 || e.position &+ e.length > bytes.count {
            problem("free extent at \(e.position) (\(e.length) bytes) runs outside the file")
        }
        return RealmStructureReport(nodeCount: live.count, liveBytes: liveBytes, freeBytes: freeBytes,
                                    fileSize: bytes.count, problems: problems)
    }

    /// The free list of the active commit: (position, length, version that freed it).
    func freeExtents() -> [(position: Int, length: Int, version: Int64?)] {
        guard top.count > 4, let pos = try? top.child(3), let len = try? top.child(4) else { return [] }
        let vers = top.count > 5 ? (try? top.child(5)) : nil
        var out: [(Int, Int, Int64?)] = []
        for i in 0..<min(pos.count, len.count) {
            let p = Int(clamping: pos.uncheckedInt(i)), l = Int(clamping: len.uncheckedInt(i))
            var v: Int64? = nil
            if let vers, i < vers.count { v = vers.uncheckedInt(i) }
            out.append((p, l, v))
        }
        return out
    }
}
