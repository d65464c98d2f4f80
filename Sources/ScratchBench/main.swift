import Foundation
import StrataBench
import StrataObjects
let n = 1_000_000
let ds = BenchDataset(objects: n, lookups: 1000, commits: 1000)
let dir = URL(fileURLWithPath: "/tmp/scratchcommit")
try? FileManager.default.removeItem(at: dir)
try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
let e = StrataBenchEngine()
try e.open(directory: dir)
_ = try e.insert(ds.rows)
let t0 = Date()
_ = try e.commit(ds.commitOperations)
print("1000 commits", Date().timeIntervalSince(t0))
try e.close()
