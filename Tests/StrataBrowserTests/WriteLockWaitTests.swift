import Foundation
import StrataObjects
import StrataStorage
import StrataTooling
import XCTest
@testable import StrataBrowser
#if canImport(Glibc)
import Glibc
#endif

/// An edit made while another process or handle holds the write lock (issue 18 item 13): the
/// browser does not freeze silently. The message line names the holder, the frame keeps
/// drawing, Esc gives up (nothing written, the Log says so), and the edit goes through once the
/// holder lets go.
final class WriteLockWaitTests: XCTestCase {
    private func name(_ harness: Harness, key: Int64 = 1) throws -> DisplayValue {
        let detail = try harness.source.object(ObjectRef(className: "Person", key: key))
        return detail.values[detail.properties.firstIndex { $0.name == "name" }!]
    }

    func testEditWaitingForTheLockNamesTheHolderAndEscCancelsIt() throws {
        let harness = Harness(columns: 140)
        let version = harness.source.status().version
        let holder = try harness.other.write(label: "hold")
        defer { holder.abort() }

        harness.press("l", "e", "C-u").type("Held Back").press("Enter")
        let waiting = "waiting for the write lock held by pid \(getpid()) (strata demo --churn) since "
        XCTAssertTrue(harness.lines[22].hasPrefix(waiting), harness.lines[22])
        XCTAssertTrue(harness.lines[22].contains(" UTC — Esc cancels"), harness.lines[22])
        // Other keys do nothing while it waits; the frame is still drawn with the line.
        harness.press("j", "e", "2")
        XCTAssertTrue(harness.lines[22].hasPrefix(waiting), harness.lines[22])

        harness.press("Esc")
        let cancelled = "not written (cancelled while waiting for the write lock held by pid \(getpid()) (strata demo --churn) since "
        XCTAssertTrue(harness.lines[22].hasPrefix(cancelled), harness.lines[22])
        XCTAssertTrue(harness.app.log.contains { $0.text.hasPrefix(cancelled) && $0.text.hasSuffix("): Person.name = Held Back") },
                      "\(harness.app.log)")
        XCTAssertEqual(try name(harness), .string("Alice Martin"))
        XCTAssertEqual(harness.source.status().version, version)

        // The cancelled wait keeps nothing: another writer gets the lock at once.
        holder.abort()
        let next = try XCTUnwrap(try harness.other.tryWrite(label: "after"), "the cancelled wait still holds the write lock")
        next.abort()
        harness.press("e", "C-u").type("Alicia").press("Enter")
        XCTAssertEqual(try name(harness), .string("Alicia"))
        XCTAssertEqual(harness.source.status().version, version + 1)
    }

    /// A delete given up while waiting leaves the object's detail open (nothing was deleted).
    func testCancelledDeleteKeepsTheObjectShown() throws {
        let harness = Harness(columns: 140)
        harness.press("Enter")
        let breadcrumb = harness.lines[1]
        XCTAssertTrue(breadcrumb.contains("Person › "), breadcrumb)
        let holder = try harness.other.write(label: "hold")
        defer { holder.abort() }
        harness.press("d", "y")
        XCTAssertTrue(harness.lines[22].hasPrefix("waiting for the write lock"), harness.lines[22])
        harness.press("Esc")
        XCTAssertEqual(harness.lines[1], breadcrumb)
        XCTAssertTrue(harness.lines[22].hasPrefix("not written (cancelled"), harness.lines[22])
    }

    /// In 80 columns the line drops "since T" so that the way out stays visible.
    func testWaitingLineKeepsEscVisibleIn80Columns() throws {
        let harness = Harness()
        let holder = try harness.other.write(label: "hold")
        defer { holder.abort() }
        harness.press("l", "e", "C-u").type("Held Back").press("Enter")
        XCTAssertEqual(harness.lines[22].trimmingCharacters(in: .whitespaces),
                       "waiting for the write lock held by pid \(getpid()) (strata demo --churn) — Esc cancels")
        harness.press("Esc")
    }

    func testEditWaitingForTheLockIsWrittenOnceTheHolderLetsGo() throws {
        let harness = Harness(columns: 140)
        let version = harness.source.status().version
        let holder = try harness.other.write(label: "hold")
        harness.press("l", "e", "C-u").type("Alicia").press("Enter")
        XCTAssertTrue(harness.lines[22].hasPrefix("waiting for the write lock held by pid \(getpid())"), harness.lines[22])
        let wait = try XCTUnwrap(harness.app.pendingWrite?.wait)
        holder.abort()
        XCTAssertTrue(wait.wait(seconds: 60), "the wait did not end when the holder released the lock")
        harness.app.processChanges()  // what the run loop does when the finished wait wakes it
        XCTAssertNil(harness.app.pendingWrite)
        XCTAssertEqual(try name(harness), .string("Alicia"))
        XCTAssertEqual(harness.source.status().version, version + 1)
        XCTAssertTrue(harness.lines[22].contains("Person.name = Alicia"), harness.lines[22])
    }

    /// Another process holds the lock and is killed while the browser waits: the kernel frees
    /// the lock and the waiting delete goes through.
    func testDeleteWaitsForAnotherProcessAndGoesThroughWhenItDies() throws {
        let harness = Harness(columns: 140)
        let child = try TestWriter.hold(harness.url.path, label: "stuck writer")
        defer { child.stop() }
        let count = harness.source.classes().first { $0.name == "Person" }!.count.value
        harness.press("d", "y")
        XCTAssertTrue(harness.lines[22].hasPrefix("waiting for the write lock held by pid \(child.pid) (stuck writer) since "),
                      harness.lines[22])
        let wait = try XCTUnwrap(harness.app.pendingWrite?.wait)
        child.stop()
        XCTAssertTrue(wait.wait(seconds: 60), "the wait did not end when the holder died")
        harness.app.processChanges()
        XCTAssertEqual(harness.source.classes().first { $0.name == "Person" }!.count.value, count - 1)
        XCTAssertTrue(harness.lines[22].contains("deleted Person"), harness.lines[22])
    }
}

/// `StrataTestWriter hold FILE LABEL`: a child process holding the write lock.
final class TestWriter {
    let process: Process
    var pid: Int32 { process.processIdentifier }

    private init(_ process: Process) { self.process = process }

    static func hold(_ path: String, label: String) throws -> TestWriter {
        var products = Bundle.main.bundleURL
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") { products = bundle.bundleURL.deletingLastPathComponent() }
        let exe = products.appendingPathComponent("StrataTestWriter")
        guard FileManager.default.fileExists(atPath: exe.path) else {
            if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail("StrataTestWriter not built at \(exe.path) (CI is set)") }
            throw XCTSkip("StrataTestWriter is not built at \(exe.path); build with swift build --build-tests")
        }
        let p = Process()
        p.executableURL = exe
        p.arguments = ["hold", path, label]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains("holding") {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { XCTFail("the holder exited before taking the lock"); break }
            seen.append(chunk)
        }
        return TestWriter(p)
    }

    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}
