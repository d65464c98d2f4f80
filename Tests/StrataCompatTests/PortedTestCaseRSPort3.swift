// Support for PortedMigrationTests.swift, PortedRealmTests.swift and
// PortedObjectSchemaInitializationTests.swift: realm-swift's TestUtils.swift helpers
// (https://github.com/realm/realm-swift, commit c22f930, RealmSwift/Tests/TestUtils.swift;
// Copyright 2015 Realm Inc., Apache License 2.0) and the test base with the models of the
// `// MARK: rsport3` block of PortedTestObjects.swift registered.

import Foundation
import XCTest
import Strata

/// The ported models plus the rsport3 block's (RealmSwift's default configuration holds every
/// `Object` subclass; Swift on Linux cannot enumerate them).
let rsport3AllObjectTypes: [ObjectBase.Type] = portedObjectTypes + rsport3ObjectTypes

/// `TestCase` whose default configuration and test-path configurations hold every model of
/// PortedTestObjects.swift, this helper's included. The assertion helpers are realm-swift's
/// TestUtils.swift functions as methods (so they cannot clash with other helpers' copies).
/// Strata change: `assertFails` with a message compares the error code and file URL; Strata's
/// messages are its own (they say what to do), so the message is not compared.
class RSPort3TestCase: TestCase {
    override func setUp() {
        super.setUp()
        Realm.Configuration.defaultConfiguration = Realm.Configuration(fileURL: defaultRealmURL(),
                                                                       objectTypes: rsport3AllObjectTypes)
    }

    override func configurationWithTestPath(configuration: Realm.Configuration = Realm.Configuration()) -> Realm.Configuration {
        var configuration = configuration
        if configuration.objectTypes == nil { configuration.objectTypes = rsport3AllObjectTypes }
        return super.configurationWithTestPath(configuration: configuration)
    }

    func assertSucceeds(message: String? = nil, fileName: StaticString = #filePath,
                        lineNumber: UInt = #line, block: () throws -> Void) {
        do {
            try block()
        } catch {
            XCTFail("Expected no error, but instead caught <\(error)>.", file: fileName, line: lineNumber)
        }
    }

    func assertFails<T>(_ expectedError: Realm.Error.Code, _ message: String? = nil,
                        fileName: StaticString = #filePath, lineNumber: UInt = #line,
                        block: () throws -> T) {
        do {
            _ = try block()
            XCTFail("Expected to catch <\(expectedError)>, but no error was thrown.", file: fileName, line: lineNumber)
        } catch let e as Realm.Error where e.code == expectedError {
            // Strata change: the message is not compared (see the class comment).
        } catch {
            XCTFail("Expected to catch <\(expectedError)>, but instead caught <\(error)>.", file: fileName, line: lineNumber)
        }
    }

    func assertFails<T>(_ expectedError: Realm.Error.Code, _ file: URL, _ message: String,
                        fileName: StaticString = #filePath, lineNumber: UInt = #line,
                        block: () throws -> T) {
        do {
            _ = try block()
            XCTFail("Expected to catch <\(expectedError)>, but no error was thrown.", file: fileName, line: lineNumber)
        } catch let e as Realm.Error where e.code == expectedError {
            XCTAssertEqual(e.fileURL, file, file: fileName, line: lineNumber)
        } catch {
            XCTFail("Expected to catch <\(expectedError)>, but instead caught <\(error)>.", file: fileName, line: lineNumber)
        }
    }

    func assertFails<T>(_ expectedError: Error, _ message: String? = nil,
                        fileName: StaticString = #filePath, lineNumber: UInt = #line,
                        block: () throws -> T) {
        do {
            _ = try block()
            XCTFail("Expected to catch <\(expectedError)>, but no error was thrown.", file: fileName, line: lineNumber)
        } catch let e where e._code == expectedError._code {
            // Success!
        } catch {
            XCTFail("Expected to catch <\(expectedError)>, but instead caught <\(error)>.", file: fileName, line: lineNumber)
        }
    }
}
