import Foundation

/// The styles of every element of the browser, read from `Resources/themes/*.json` (embedded at
/// build time). ``colored`` (`default.json`) uses colors; ``monochrome`` uses only
/// attributes (bold, reverse, underline, dim) so `NO_COLOR` and monochrome terminals keep every
/// distinction that matters (cursor, header, null, marked rows, errors).
package struct Theme: Sendable {
    /// Every element plain; the themes come from `Resources/themes/` (``init(json:)``).
    package init() {}

    package var text = Style.plain
    package var tabActive = Style.plain
    package var tabInactive = Style.plain
    package var title = Style.plain
    package var header = Style.plain
    package var rowNumber = Style.plain
    package var cursorCell = Style.plain
    package var cursorRowNumber = Style.plain
    package var sidebarSelected = Style.plain
    package var sidebarSelectedUnfocused = Style.plain
    package var null = Style.plain
    package var link = Style.plain
    package var collection = Style.plain
    package var number = Style.plain
    package var date = Style.plain
    package var identifier = Style.plain
    package var marked = Style.plain
    package var statusBar = Style.plain
    package var message = Style.plain
    package var error = Style.plain
    package var prompt = Style.plain
    package var dialog = Style.plain
    package var dialogBorder = Style.plain
    package var key = Style.plain
    package var dim = Style.plain
    package var barUsed = Style.plain
    package var barLocked = Style.plain
    package var barFree = Style.plain
    package var dead = Style.plain

    /// Attributes only (`Resources/themes/monochrome.json`).
    package static let monochrome = bundled("monochrome")

    /// The default look on color terminals (`Resources/themes/default.json`).
    package static let colored = bundled("default")

    /// The theme names in `Resources/themes/`.
    package static var bundledNames: [String] {
        StrataBrowserResources.files.keys.filter { $0.hasPrefix("themes/") && $0.hasSuffix(".json") }
            .map { String($0.dropFirst("themes/".count).dropLast(".json".count)) }.sorted()
    }

    /// A theme built into the binary. The embedded files are checked by `ThemeTests`.
    static func bundled(_ name: String) -> Theme {
        do {
            return try Theme(json: StrataBrowserResources.files["themes/\(name).json"] ?? "")
        } catch {
            fatalError("Resources/themes/\(name).json: \(error)")
        }
    }

    /// Every element a theme file styles, by its name in the file.
    static var elements: [String: WritableKeyPath<Theme, Style>] { [
        "text": \.text, "tabActive": \.tabActive, "tabInactive": \.tabInactive, "title": \.title,
        "header": \.header, "rowNumber": \.rowNumber, "cursorCell": \.cursorCell,
        "cursorRowNumber": \.cursorRowNumber, "sidebarSelected": \.sidebarSelected,
        "sidebarSelectedUnfocused": \.sidebarSelectedUnfocused, "null": \.null, "link": \.link,
        "collection": \.collection, "number": \.number, "date": \.date, "identifier": \.identifier,
        "marked": \.marked, "statusBar": \.statusBar, "message": \.message, "error": \.error,
        "prompt": \.prompt, "dialog": \.dialog, "dialogBorder": \.dialogBorder, "key": \.key, "dim": \.dim,
        "barUsed": \.barUsed, "barLocked": \.barLocked, "barFree": \.barFree, "dead": \.dead,
    ] }

    /// Parses a theme file: `{"styles": {"element": "yellow on blue bold", ...}}`. Every element
    /// must be given (a missing one would silently fall back); unknown names are errors.
    package init(json: String) throws {
        struct File: Decodable { var styles: [String: String] }
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: Data(json.utf8))
        } catch {
            throw ThemeError(description: "not a theme file ({\"styles\": {element: style}}): \(error)")
        }
        self.init()
        for (name, spec) in file.styles {
            guard let path = Self.elements[name] else {
                throw ThemeError(description: "unknown element '\(name)'; known: \(Self.elements.keys.sorted().joined(separator: ", "))")
            }
            self[keyPath: path] = try Style(spec: spec)
        }
        let missing = Set(Self.elements.keys).subtracting(file.styles.keys)
        guard missing.isEmpty else {
            throw ThemeError(description: "no style for \(missing.sorted().joined(separator: ", "))")
        }
    }

    /// The colored theme, or the monochrome one when the environment sets `NO_COLOR` to any
    /// non-empty value (https://no-color.org).
    package static func forEnvironment(_ environment: [String: String]) -> Theme {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .monochrome }
        return .colored
    }
}

/// A theme file that cannot be used, with what to fix.
package struct ThemeError: Error, CustomStringConvertible {
    package var description: String
}

extension Style {
    /// Parses `plain` or words: a foreground color, `on` and a background color, and any of
    /// `bold reverse underline dim`.
    init(spec: String) throws {
        self.init()
        var words = spec.split(separator: " ").map(String.init)[...]
        let colors = Dictionary(uniqueKeysWithValues: TerminalColor.allCases.map { ("\($0)", $0) })
        while let word = words.popFirst() {
            switch word {
            case "plain": break
            case "bold": bold = true
            case "reverse": reverse = true
            case "underline": underline = true
            case "dim": dim = true
            case "on":
                guard let name = words.popFirst(), let color = colors[name] else {
                    throw ThemeError(description: "'\(spec)': 'on' needs a color (\(colors.keys.sorted().joined(separator: " ")))")
                }
                background = color
            default:
                guard let color = colors[word] else {
                    throw ThemeError(description: "'\(spec)': unknown word '\(word)'; use colors \(colors.keys.sorted().joined(separator: " ")), on COLOR, bold reverse underline dim, plain")
                }
                foreground = color
            }
        }
    }
}
