import Foundation
import StrataStorage
import StrataObjects
import StrataTooling
@testable import StrataBrowser

/// The browser's tests run on the real engine: the real demo schema and data (`DemoDatabase`,
/// seeded, so every run builds the same objects), written once per test run to a template file
/// and copied for each test so tests never see each other's edits.
enum TestDatabase {
    /// Objects of the template: small enough to build in a second in debug builds.
    static let people = 24
    static let events = 3_000

    /// The template file, built on first use.
    static let template: String = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-browser-tests-\(getpid())")
        try? FileManager.default.removeItem(at: directory)
        try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("template.strata").path
        do {
            try DemoDatabase.create(at: path, events: events, people: people)
        } catch {
            fatalError("could not build the demo template at \(path): \(error)")
        }
        return path
    }()

    /// A fresh copy of the template named `demo.strata` in its own temporary directory.
    static func copy() -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-browser-test-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("demo.strata")
        try! FileManager.default.copyItem(atPath: template, toPath: url.path)
        return url
    }

    /// Another handle on the same file: the "other process" whose commits the browser sees.
    static func otherWriter(_ url: URL) throws -> Database {
        var options = StoreOptions()
        options.create = false
        options.label = "strata demo --churn"
        return try Database(path: url.path, options: options)
    }
}
