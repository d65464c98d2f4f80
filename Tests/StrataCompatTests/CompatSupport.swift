import Foundation
import XCTest
import Strata

/// A temporary directory removed when the fixture goes away.
final class CompatDir {
    let url: URL
    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("strata-compat-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }
    func config(_ name: String = "compat.strata", types: [ObjectBase.Type]) -> Realm.Configuration {
        Realm.Configuration(fileURL: url.appendingPathComponent(name), objectTypes: types)
    }
}

/// Polls `condition` (running the current run loop) until it holds or `timeout` passes.
func waitFor(_ timeout: TimeInterval = 5, _ condition: () -> Bool) -> Bool {
    let end = Date().addingTimeInterval(timeout)
    while !condition() && Date() < end { RunLoop.current.run(until: Date().addingTimeInterval(0.005)) }
    return condition()
}

// MARK: - models, declared as RealmSwift's documentation shows them

enum TaskPriority: Int, PersistableEnum { case low, medium, high }
enum TaskStatus: String, PersistableEnum { case open, done }

/// A struct stored through a Double.
struct Temperature: CustomPersistable {
    typealias PersistedType = Double
    var celsius: Double
    init(persistedValue: Double) { celsius = persistedValue }
    var persistableValue: Double { celsius }
}

/// An URL stored as its string (RealmSwift's documented example, on a wrapper so the test
/// target does not make Foundation's URL conform globally for other code).
struct Link: FailableCustomPersistable {
    typealias PersistedType = String
    let url: URL
    init(_ url: URL) { self.url = url }
    init?(persistedValue: String) { guard let u = URL(string: persistedValue), u.scheme != nil else { return nil }; url = u }
    var persistableValue: String { url.absoluteString }
}

final class CTask: Object {
    @Persisted(primaryKey: true) var id: ObjectId
    @Persisted var title = ""
    @Persisted var priority: TaskPriority
    @Persisted var status: TaskStatus = .open
    @Persisted var optionalPriority: TaskPriority?
    @Persisted var history: List<TaskPriority>
    @Persisted var statuses: MutableSet<TaskStatus>
    @Persisted var byDay: Map<String, TaskPriority>
    @Persisted var price: Decimal128 = "9.99"
    @Persisted var temperature: Temperature
    @Persisted var link: Link?
    @Persisted var readings: List<Temperature>
    @Persisted(originProperty: "tasks") var projects: LinkingObjects<CProject>
}

final class CProject: Object {
    @Persisted(primaryKey: true) var name = ""
    @Persisted var tasks: List<CTask>
    @Persisted var tags: MutableSet<String>
    @Persisted var scores: Map<String, Int>
    @Persisted var counts: List<Int>
    @Persisted var child: CChild?
}

final class CChild: EmbeddedObject {
    @Persisted var note = ""
    @Persisted var dog: CDog?
}

final class CDog: Object {
    @Persisted var name = ""
    @Persisted var age = 0
    @Persisted(originProperty: "dog") var owners: LinkingObjects<CChild>
}

let compatTypes: [ObjectBase.Type] = [CTask.self, CProject.self, CChild.self, CDog.self]
