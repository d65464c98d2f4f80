// The Realm Query Language text the typed query builder produces, and its errors.
import XCTest
import Foundation
@testable import StrataQuery
import StrataObjects

final class TQTPet: Object {
    @Persisted var age = 0
    @Persisted var friends: List<TQTPet>
}

final class TQTPerson: Object {
    @Persisted var age = 0
    @Persisted var pets: List<TQTPet>
    @Persisted var best: TQTPerson?
    @Persisted var scores: Map<String, Int>
}

final class TypedQueryTextTests: XCTestCase {
    private func text(_ q: (Query<TQTPerson>) -> Query<Bool>) throws -> String {
        try q(Query<TQTPerson>(.keyPath([], collectionAt: nil))).predicateText().0
    }

    func testAggregatesGoAfterTheCollectionTheyCross() throws {
        XCTAssertEqual(try text { $0.pets.age.avg > 3 }, "pets.@avg.age > $0")
        XCTAssertEqual(try text { $0.best.pets.age.sum == 3 }, "best.pets.@sum.age == $0")
        XCTAssertEqual(try text { $0.scores.max < 3 }, "scores.@max < $0")
        XCTAssertEqual(try text { $0.scores["a'b"] == 1 }, "scores[\"a'b\"] == $0")
        XCTAssertEqual(try text { $0.scores.values > 1 }, "scores.@values > $0")
        XCTAssertEqual(try text { ($0.pets.age > 1).count > 1 },
                       "SUBQUERY(pets, $col1, $col1.age > $0).@count > $1")
    }

    func testAggregateWithoutACollectionIsAnError() {
        XCTAssertThrowsError(try text { $0.age.avg > 3 }) { error in
            XCTAssertTrue("\(error)".contains("'.avg' on 'age' needs a property of the objects of a collection"), "\(error)")
        }
        XCTAssertThrowsError(try text { ($0.age > 3).count > 1 }) { error in
            XCTAssertTrue("\(error)".contains("needs a predicate on the objects of a collection"), "\(error)")
        }
    }
}
