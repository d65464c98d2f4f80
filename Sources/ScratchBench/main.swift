import Foundation
import StrataObjects
import StrataStorage

let schema = Schema([ObjectSchema(className: "Item", properties: [
    PropertySchema(name: "id", type: .int, isPrimaryKey: true),
    PropertySchema(name: "name", type: .string),
    PropertySchema(name: "age", type: .int),
    PropertySchema(name: "score", type: .double),
    PropertySchema(name: "active", type: .bool),
])])
let path = "/tmp/scratch-\(getpid()).strata"
let n = Int(CommandLine.arguments.dropFirst().first ?? "1000000")!
func now() -> Double { Date().timeIntervalSince1970 }
let db = try Database(path: path, schema: schema)
let names = ["Bob", "Alice", "Carol", "Bea", "Dan"]
var rows: [[Value]] = []
for i in 0..<n {
    let name: String = names[i % 5] + String(i)
    let r: [Value] = [Value.int(Int64(i)), Value.string(name), Value.int(Int64(i % 100)), Value.double(Double(i) * 0.5), Value.bool(i % 2 == 0)]
    rows.append(r)
}
var t0 = now()
let w = try db.write()
for r in rows { try w.insertRow("Item", r) }
let t1 = now()
try w.commit()
let t2 = now()
print("insert \(n): build \(t1 - t0)s commit \(t2 - t1)s total \(t2 - t0)s")
let attrs = try FileManager.default.attributesOfItem(atPath: path)
print("file size", attrs[.size]!, "used", try db.store.spaceStatistics().usedBytes)
t0 = now()
let r = try db.read()
var sum: Int64 = 0
try r.forEachCluster("Item") { c in sum &+= try c.column("age").sumInts(); return true }
print("sum \(sum) in \(now() - t0)s")
t0 = now()
var cnt = 0
try r.forEachCluster("Item") { c in
    let age = try c.column("age"); let name = try c.column("name")
    for i in 0..<c.count {
        let a = age.int(i)
        if a >= 20 && a <= 40 && name.withBytes(i, { $0.first == UInt8(ascii: "B") }) { cnt += 1 }
    }
    return true
}
print("count \(cnt) in \(now() - t0)s")
t0 = now()
var chk = 0.0
for i in 0..<100_000 {
    let k = Int64((i &* 7919) % n)
    if let (c, row) = try r.clusterOf("Item", k) { chk += try c.column("score").double(row); _ = try c.column("name").withBytes(row) { $0.count } }
}
print("100k lookups \(now() - t0)s \(chk)")
try? FileManager.default.removeItem(atPath: path); try? FileManager.default.removeItem(atPath: path + ".lock")
