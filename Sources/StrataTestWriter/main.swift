// A child process for the storage crash and multi-process tests. Not part of the product.
//
//   StrataTestWriter churn PATH SEED      commit forever; before commit n print "begin n", after
//                                         it "committed V n" (a kill between the two landed
//                                         inside commit n)
//   StrataTestWriter hold PATH LABEL      open with LABEL, begin a write transaction, print
//                                         "holding V", then sleep holding the write lock
//   StrataTestWriter churn-encrypted PATH SEED   as churn, on a file encrypted with the test key
//                                         (bytes i*7+3 for i in 0..<64)
//   StrataTestWriter add-encrypted PATH ID COUNT   as add, on a file encrypted with the test
//                                         key; each commit also puts "v<ID>-<n>" (600 bytes)
//   StrataTestWriter reader PATH LABEL    pin the newest version, print "pinned V", then sleep
//   StrataTestWriter step PATH            pin the newest version and begin a write transaction
//                                         (print "ready V"); at each line read from stdin take the
//                                         next step: put a key and commit ("committed V"), end the
//                                         read ("released"), close ("closed", then exit 0)
//   StrataTestWriter add PATH ID COUNT    COUNT commits, each adding 1 to keys "p<ID>" and "total"
//   StrataTestWriter compact PATH         churn commits (as churn), after every third one a full
//                                         compact(); prints "compacted V" after each
//   StrataTestWriter compact-online PATH  churn commits (as churn); every third one, fill and
//                                         empty a "junk" tree, then compactOnline(); prints
//                                         "compacted V" after each
//
// State after churn commit n: key "counter" = n; keys "n<i>" for i in max(1, n-49)...n, each
// holding a value derived from i (length varies up to 3000 bytes, some large-value blocks).
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import StrataStorage

/// Writes one line straight to fd 1 (unbuffered: the line is out before the next commit starts).
func emit(_ s: String) { let b = Array((s + "\n").utf8); _ = b.withUnsafeBytes { write(1, $0.baseAddress, $0.count) } }
let args = CommandLine.arguments
func fail(_ s: String) -> Never { FileHandle.standardError.write((s + "\n").data(using: .utf8)!); exit(2) }
guard args.count >= 3 else { fail("usage: StrataTestWriter churn|reader|add PATH ...") }
let path = args[2]

func churnValue(_ i: Int) -> [UInt8] {
    let len = (i * 7919) % 3000
    return (0..<len).map { UInt8(truncatingIfNeeded: $0 &+ i) }
}
func u64(_ v: UInt64) -> [UInt8] { withUnsafeBytes(of: v.littleEndian) { Array($0) } }

/// The key the encrypted modes use (tests open the file with the same one).
let testKey: [UInt8] = (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }

/// One churn commit: value `n` in, value `n - 50` out, the counter set to `n`; reports it.
func churnCommit(_ store: Store, _ n: Int) throws {
    emit("begin \(n)")
    let w = try store.beginWrite(label: "churn")
    let t = try w.tree("t", create: true)!
    try t.put(Array("n\(n)".utf8), bytes: churnValue(n))
    if n > 50 { try t.delete(Array("n\(n - 50)".utf8)) }
    try t.put(Array("counter".utf8), bytes: u64(UInt64(n)))
    let v = try w.commit()
    emit("committed \(v) \(n)")
}
func readU64(_ b: [UInt8]?) -> UInt64 { guard let b, b.count == 8 else { return 0 }; return b.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) } }

do {
    switch args[1] {
    case "churn", "churn-encrypted":
        var options = StoreOptions()
        if args[1] == "churn-encrypted" { options.encryptionKey = testKey }
        let store = try Store(path: path, options: options)
        var n = Int(readU64(try store.beginRead().tree("t")?.getBytes(Array("counter".utf8))))
        while true {
            n += 1
            try churnCommit(store, n)
        }
    case "hold":
        var options = StoreOptions()
        options.label = args.count > 3 ? args[3] : "holder"
        let store = try Store(path: path, options: options)
        let w = try store.beginWrite(label: "hold")
        emit("holding \(w.version)")
        while true { sleep(1000) }
    case "reader":
        let store = try Store(path: path)
        let r = try store.beginRead(label: args.count > 3 ? args[3] : "reader")
        emit("pinned \(r.version)")
        while true { sleep(1000) }
    case "step":
        let store = try Store(path: path)
        let r = try store.beginRead(label: "step")
        let w = try store.beginWrite(label: "step")
        emit("ready \(r.version)")
        _ = readLine()
        try w.tree("t", create: true)!.put(Array("step".utf8), bytes: [1])
        emit("committed \(try w.commit())")
        _ = readLine()
        r.end()
        emit("released")
        _ = readLine()
        store.close()
        emit("closed")
        exit(0)
    case "add", "add-encrypted":
        guard args.count >= 5, let id = Int(args[3]), let count = Int(args[4]) else { fail("usage: add PATH ID COUNT") }
        var options = StoreOptions()
        let encrypted = args[1] == "add-encrypted"
        if encrypted { options.encryptionKey = testKey }
        let store = try Store(path: path, options: options)
        for n in 0..<count {
            let w = try store.beginWrite(label: "add-\(id)")
            let t = try w.tree("t", create: true)!
            let mine = readU64(try t.getBytes(Array("p\(id)".utf8))) + 1
            let total = readU64(try t.getBytes(Array("total".utf8))) + 1
            try t.put(Array("p\(id)".utf8), bytes: u64(mine))
            try t.put(Array("total".utf8), bytes: u64(total))
            if encrypted { try t.put(Array("v\(id)-\(n)".utf8), bytes: (0..<600).map { UInt8(truncatingIfNeeded: $0 &+ id &* 31 &+ n) }) }
            try w.commit()
        }
        emit("done \(id)")
    case "compact", "compact-online":
        let online = args[1] == "compact-online"
        let store = try Store(path: path)
        var n = Int(readU64(try store.beginRead().tree("t")?.getBytes(Array("counter".utf8))))
        while true {
            n += 1
            try churnCommit(store, n)
            guard n % 3 == 0 else { continue }
            if online {
                let fill = try store.beginWrite(label: "junk")
                let junk = try fill.tree("junk", create: true)!
                for i in 0..<300 { try junk.put(Array("j\(i)".utf8), bytes: churnValue(n + i)) }
                try fill.commit()
                let empty = try store.beginWrite(label: "junk")
                try empty.dropTree("junk")
                try empty.commit()
                let r = try store.compactOnline()
                emit("compacted \(r.version)")
            } else {
                let r = try store.compact()
                emit("compacted \(r.version)")
            }
        }
    default:
        fail("unknown mode \(args[1])")
    }
} catch {
    fail("error: \(error)")
}
