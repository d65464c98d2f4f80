import XCTest
import Foundation
@testable import StrataObjects

final class BenchItem: Object {
    @Persisted var a = 0
    @Persisted var b = 0
    @Persisted var name = ""
    @Persisted var score = 0.0
    @Persisted var flag = false
}

/// Measured figures for the typed API. Runs only with STRATA_API_BENCH=N (objects), e.g.
/// `STRATA_API_BENCH=1000000 swift test -c release --filter APIBenchTests`.
final class APIBenchTests: XCTestCase {
    func testInsertAndScan() throws {
        guard let n = ProcessInfo.processInfo.environment["STRATA_API_BENCH"].flatMap(Int.init) else {
            throw XCTSkip("set STRATA_API_BENCH=N to run")
        }
        let f = APIFixture()
        let realm = try Realm(configuration: f.config("bench.strata", types: [BenchItem.self]))
        var t = Date()
        try realm.write {
            for i in 0..<n {
                let o = BenchItem()
                o.a = i; o.b = i % 1000; o.name = "item \(i)"; o.score = Double(i) * 0.5; o.flag = i % 2 == 0
                realm.add(o)
            }
        }
        let insert = Date().timeIntervalSince(t)
        let size = try realm.database.store.fileSize()
        t = Date()
        var sum = 0
        for o in realm.objects(BenchItem.self) { sum &+= o.b }
        let scanTyped = Date().timeIntervalSince(t)
        t = Date()
        let sum2: Int = realm.objects(BenchItem.self).sum(ofProperty: "b")
        let scanAggregate = Date().timeIntervalSince(t)
        t = Date()
        var sum3: Int64 = 0
        try realm.withTransaction { txn in
            try txn.forEachCluster("BenchItem") { c in sum3 &+= try c.column("b").sumInts(); return true }
        }
        let scanColumns = Date().timeIntervalSince(t)
        XCTAssertEqual(sum, sum2); XCTAssertEqual(Int64(sum), sum3)
        print(String(format: "API bench: %d objects (5 properties): insert %.2f s in one transaction, file %.1f MB; scan of one Int column: typed iteration %.2f s, sum(ofProperty:) %.2f s, column scan %.3f s",
                     n, insert, Double(size) / 1e6, scanTyped, scanAggregate, scanColumns))
        assertIntegrity(realm)
    }
}
