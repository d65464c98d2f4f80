import Foundation
import StrataBench
let n = 1_000_000
let ds = BenchDataset(objects: n, lookups: 100_000, commits: 10)
let dir = URL(fileURLWithPath: "/tmp/scratchlookup")
try? FileManager.default.removeItem(at: dir)
try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
let e = StrataBenchEngine()
try e.open(directory: dir)
_ = try e.insert(ds.rows)
for _ in 0..<5 {
    let t0 = Date()
    _ = try e.lookup(ids: ds.lookupIDs)
    print("100k lookups", Date().timeIntervalSince(t0))
}
try e.close()
