import Foundation
import XCTest
import Strata

/// `description` of `List`, `MutableSet` and `Map` in RealmSwift's format
/// (`RLMDescriptionWithMaxDepth` / `RLMDictionaryDescriptionWithMaxDepth`).
final class CollectionDescriptionCompatTests: XCTestCase {
    private func withoutAddress(_ s: String) -> String {
        s.replacingOccurrences(of: #"<0x[0-9a-f]+>"#, with: "<ADDR>", options: .regularExpression)
    }

    func testListAndSetOfObjects() throws {
        let dir = CompatDir()
        let realm = try Realm(configuration: dir.config(types: compatTypes))
        let p = CProject()
        p.name = "p"
        try realm.write {
            realm.add(p)
            p.child = CChild()
            p.counts.append(objectsIn: [1, 2])
            p.tags.insert("a")
        }
        XCTAssertEqual(withoutAddress(p.counts.description), "List<int> <ADDR> (\n\t[0] 1,\n\t[1] 2\n)")
        XCTAssertEqual(withoutAddress(p.tags.description), "MutableSet<string> <ADDR> (\n\t[0] a\n)")
        XCTAssertEqual(withoutAddress(List<Int>().description), "List<int> <ADDR> (\n\n)")
        let tasks = List<CTask>()
        let t = CTask(); t.title = "x"
        tasks.append(t)
        XCTAssertTrue(withoutAddress(tasks.description).hasPrefix("List<CTask> <ADDR> (\n\t[0] CTask {\n\t\tid = "))
        XCTAssertTrue(tasks.description.hasSuffix("\n\t}\n)"))
        try realm.write { p.scores["m"] = 4 }
        XCTAssertEqual(withoutAddress(p.scores.description), "Map<string, int> <ADDR> (\n[m]: 4\n)")
    }

    func testLongListSaysHowManyWereLeftOut() {
        let l = List<Int>()
        l.append(objectsIn: 0..<105)
        XCTAssertTrue(l.description.hasSuffix("\t[99] 99\n\t... 5 objects skipped.\n)"))
    }
}
