import Foundation
import XCTest
@testable import StrataBrowser

/// `Resources/keymap.json`: it parses, every action id has a handler (``KeyAction``) and every
/// handler has a key; dispatch, the help overlay and the hint bar follow it.
final class KeyMapTests: XCTestCase {
    func testBundledKeyMapParsesAndBindsEveryAction() throws {
        let map = try KeyMap(json: try XCTUnwrap(StrataBrowserResources.files["keymap.json"]))
        let bound = Set(map.bindings.map(\.action))
        let unbound = KeyAction.allCases.filter { !bound.contains($0) }
        XCTAssertEqual(unbound, [], "actions the dispatch handles but no key in Resources/keymap.json runs")
        for binding in map.bindings {
            XCTAssertFalse(binding.keys.isEmpty, "\(binding.action.rawValue) has no key")
        }
    }

    func testUnknownActionIdIsRejected() {
        let json = #"{"bindings": [{"context": "global", "action": "launch.rockets", "keys": ["x"]}]}"#
        XCTAssertThrowsError(try KeyMap(json: json)) { error in
            XCTAssertTrue("\(error)".contains("launch.rockets"), "\(error)")
        }
    }

    func testUnknownKeyNameAndDoubleBindingAreRejected() {
        let badKey = #"{"bindings": [{"context": "global", "action": "quit", "keys": ["Ctrl+Q"]}]}"#
        XCTAssertThrowsError(try KeyMap(json: badKey)) { XCTAssertTrue("\($0)".contains("Ctrl+Q"), "\($0)") }
        let twice = #"{"bindings": [{"context": "global", "action": "quit", "keys": ["q"]}, {"context": "global", "action": "help", "keys": ["q"]}]}"#
        XCTAssertThrowsError(try KeyMap(json: twice)) { XCTAssertTrue("\($0)".contains("bound twice"), "\($0)") }
        // The same key in two contexts is fine.
        let contexts = #"{"bindings": [{"context": "global", "action": "quit", "keys": ["q"]}, {"context": "help", "action": "help.close", "keys": ["q"]}]}"#
        XCTAssertNoThrow(try KeyMap(json: contexts))
    }

    func testLookupByContext() {
        let map = KeyMap.standard
        XCTAssertEqual(map.action(for: .character("q"), in: .global), .quit)
        XCTAssertEqual(map.action(for: .control("c"), in: .prompt), .promptQuit)
        XCTAssertEqual(map.action(for: .character("j"), in: .table), .tableDown)
        XCTAssertEqual(map.action(for: .character("G"), in: .report), .reportEnd)
        XCTAssertNil(map.action(for: .character("j"), in: .global))
    }

    /// The hint bar and the help overlay come from the key map, not from a list in Swift.
    func testHintsAndHelpComeFromTheKeyMap() throws {
        let json = #"""
        {"bindings": [
          {"context": "global", "action": "quit", "keys": ["x"], "group": "Only", "help": [["x", "leave"]],
           "hint": {"label": "x", "text": "leave", "screens": {"data": 2}}},
          {"context": "data", "action": "data.open", "keys": ["o"], "group": "Only", "help": [["o", "open it"]],
           "hint": {"label": "o", "text": "open", "screens": {"data": 1, "log": 1}}}
        ]}
        """#
        let map = try KeyMap(json: json)
        XCTAssertEqual(map.hints(for: .data).map { "\($0.0) \($0.1)" }, ["o open", "x leave"])
        XCTAssertEqual(map.hints(for: .log).map { "\($0.0) \($0.1)" }, ["o open"])
        XCTAssertEqual(map.helpEntries.map { "\($0.0)|\($0.1)" }, ["Only|", "x|leave", "o|open it"])
        XCTAssertEqual(map.action(for: .character("x"), in: .global), .quit)
    }

    func testBrowseHelpTextListsEveryHelpLine() {
        let text = BrowserKeys.helpText
        for (keys, description) in KeyMap.standard.helpEntries {
            XCTAssertTrue(text.contains(keys), keys)
            if !description.isEmpty { XCTAssertTrue(text.contains(description), description) }
        }
    }
}
