import XCTest
@testable import StrataBrowser
import StrataTooling

final class RenderingTests: XCTestCase {
    func testDisplayWidth() {
        XCTAssertEqual(DisplayWidth.of("abc"), 3)
        XCTAssertEqual(DisplayWidth.of("漢字"), 4)
        XCTAssertEqual(DisplayWidth.of("한국어"), 6)
        XCTAssertEqual(DisplayWidth.of("ｶﾀｶﾅ"), 4, "halfwidth katakana is narrow")
        XCTAssertEqual(DisplayWidth.of("ＡＢ"), 4, "fullwidth Latin is wide")
        XCTAssertEqual(DisplayWidth.of("🐶"), 2)
        XCTAssertEqual(DisplayWidth.of("e\u{301}"), 1)
        XCTAssertEqual(DisplayWidth.of("👨‍👩‍👧"), 2)
        XCTAssertEqual(DisplayWidth.of("🇫🇷"), 2)
        XCTAssertEqual(DisplayWidth.of("❤️"), 2)
        XCTAssertEqual(DisplayWidth.of("👍🏽"), 2)
        XCTAssertEqual(DisplayWidth.of("\u{200B}"), 0)
        XCTAssertEqual(DisplayWidth.of("Ωμέγα"), 5)
    }

    func testTruncationNeverSplitsAWideCharacter() {
        XCTAssertEqual(TextLayout.fit("漢字漢字", width: 5), "漢字…")
        XCTAssertEqual(TextLayout.fit("漢字漢字", width: 4), "漢… ")
        XCTAssertEqual(TextLayout.fit("ab🐶cd", width: 3), "ab…")
        XCTAssertEqual(TextLayout.fit("ab", width: 4, alignment: .right), "  ab")
        for width in 1...9 {
            XCTAssertEqual(DisplayWidth.of(TextLayout.fit("東京🐶e\u{301}x漢", width: width)), width)
        }
    }

    func testCellBufferKeepsWideCharactersWhole() {
        var buffer = CellBuffer(width: 6, height: 1)
        buffer.write("漢字漢", x: 0, y: 0)
        XCTAssertEqual(buffer.textLines(), ["漢字漢"])
        buffer.write("a", x: 3, y: 0)  // over the right half of 字
        XCTAssertEqual(buffer.textLines(), ["漢 a漢"])
        buffer.write("字", x: 5, y: 0)  // no room for both halves
        XCTAssertEqual(buffer.textLines(), ["漢 a  "])
        XCTAssertEqual(buffer[4, 0].width, 1)
    }

    func testWideCharactersKeepColumnsAligned() throws {
        let harness = Harness()
        try harness.source.setValue(text: "東京都渋谷区神宮前一丁目二十三番🐶", property: "name", of: ObjectRef(className: "Person", key: 2))
        harness.app.processChanges()
        let frame = harness.frame
        // The separator after the name column is at the same column on every row.
        var separators: Set<Int> = []
        for y in 3..<22 {
            var x = 0
            var seen = 0
            while x < frame.width {
                if frame[x, y].text == "│" { seen += 1; if seen == 3 { separators.insert(x); break } }
                x += 1
            }
        }
        XCTAssertEqual(separators.count, 1, "separators at \(separators)")
        // 8 wide characters (16 columns) + `…` + one space of padding fill the 18-column field.
        XCTAssertTrue(harness.lines[4].contains("│東京都渋谷区神宮… │"), harness.lines[4])
        for y in 0..<frame.height {
            XCTAssertEqual((0..<frame.width).reduce(0) { $0 + frame[$1, y].width }, 80, "row \(y) spans 80 columns")
        }
    }

    func testNoColorUsesAttributesOnly() {
        let harness = Harness(environment: ["NO_COLOR": "1"])
        harness.press("j")
        for frame in [harness.frame, harness.press("2").frame, harness.press("3").frame, harness.press("?").frame] {
            XCTAssertFalse(frame.cells.contains { $0.style.foreground != nil || $0.style.background != nil })
        }
        harness.press("Esc", "1")
        let frame = harness.frame
        XCTAssertTrue(frame.cells.contains { $0.style.reverse }, "the cursor is still visible")
        XCTAssertTrue(frame.cells.contains { $0.style.dim && $0.text == "n" }, "null is dim")
        let colored = Harness()
        XCTAssertTrue(colored.frame.cells.contains { $0.style.foreground != nil })
    }

    func testEmptyNoColorStillHasColors() {
        let harness = Harness(environment: ["NO_COLOR": ""])
        XCTAssertTrue(harness.frame.cells.contains { $0.style.foreground != nil })
    }

    func testResizeToAnySizeRenders() {
        let harness = Harness()
        let sizes = [(20, 5), (10, 3), (1, 1), (0, 0), (30, 8), (45, 12), (200, 60), (80, 24)]
        for state in [[], ["j", "Enter"], ["?"], ["c"], ["l", "e"], ["h"], ["2"], ["3"], ["4"], ["5"]] {
            let fresh = Harness()
            for key in state { fresh.press(key) }
            for (columns, rows) in sizes {
                fresh.app.handle(.resize(columns: columns, rows: rows))
                let frame = fresh.frame
                XCTAssertEqual(frame.width, columns)
                XCTAssertEqual(frame.height, rows)
                for key in ["j", "G", "l", "k"] where !state.contains("e") { fresh.press(key) }
                _ = fresh.frame
            }
        }
        harness.app.handle(.resize(columns: 20, rows: 5))
        let lines = harness.lines
        XCTAssertTrue(lines[4].contains("demo.strata"))
        XCTAssertTrue(lines[1].hasPrefix("Person"))
    }

    func testMonochromeTerminalGetsNoColors() throws {
        let harness = Harness()
        let backend = MemoryTerminalBackend(supportsColor: false)
        backend.type([.character("j"), .character("q")])
        try runBrowser(dataSource: harness.source, backend: backend, environment: [:], clock: { RecordingDataSource.referenceDate })
        XCTAssertFalse(backend.frames.last!.cells.contains { $0.style.foreground != nil || $0.style.background != nil })
    }

    func testStatusBarShowsModeAtEverySize() {
        let harness = Harness(readOnly: true)
        let narrow = BrowserApp(dataSource: harness.source, size: TerminalSize(columns: 80, rows: 24), environment: [:])
        XCTAssertTrue(narrow.frame().textLines()[23].trimmingCharacters(in: .whitespaces).hasSuffix("│ro"), narrow.frame().textLines()[23])
        narrow.resize(to: TerminalSize(columns: 140, rows: 40))
        XCTAssertTrue(narrow.frame().textLines()[39].trimmingCharacters(in: .whitespaces).hasSuffix("│ read-only"), narrow.frame().textLines()[39])
    }

    func testFormatting() {
        XCTAssertEqual(Formatting.number(10_000_000), "10,000,000")
        XCTAssertEqual(Formatting.bytes(512), "512 B")
        XCTAssertEqual(Formatting.bytes(1536), "1.5 KiB")
        XCTAssertEqual(Formatting.dateTime(RecordingDataSource.referenceDate), "2024-05-01 12:30:05")
        XCTAssertEqual(Formatting.duration(8054), "2 h 14 m")
        XCTAssertEqual(Formatting.timing(0.00061), "0.6 ms")
        XCTAssertEqual(Formatting.timing(0.0094), "9.4 ms")
        XCTAssertEqual(Formatting.timing(0.25), "250 ms")
        XCTAssertEqual(DisplayValue.collection(count: 3, elementType: "Dog").formatted.text, "[3 Dog]")
        XCTAssertEqual(DisplayValue.null.formatted.role, .null)
    }
}
