/// The styles of every element of the browser. ``colored`` uses colors; ``monochrome`` uses only
/// attributes (bold, reverse, underline, dim) so `NO_COLOR` and monochrome terminals keep every
/// distinction that matters (cursor, header, null, marked rows, errors).
public struct Theme: Sendable {
    public var text = Style.plain
    public var tabActive = Style(bold: true, reverse: true)
    public var tabInactive = Style.plain
    public var title = Style(bold: true)
    public var header = Style(bold: true, underline: true)
    public var rowNumber = Style(dim: true)
    public var cursorCell = Style(reverse: true)
    public var cursorRowNumber = Style(bold: true, reverse: true)
    public var sidebarSelected = Style(bold: true, reverse: true)
    public var sidebarSelectedUnfocused = Style(bold: true, underline: true)
    public var null = Style(dim: true)
    public var link = Style(underline: true)
    public var collection = Style.plain
    public var number = Style.plain
    public var date = Style.plain
    public var identifier = Style.plain
    public var marked = Style(bold: true)
    public var statusBar = Style(reverse: true)
    public var message = Style.plain
    public var error = Style(bold: true)
    public var prompt = Style(bold: true)
    public var dialog = Style.plain
    public var dialogBorder = Style(bold: true)
    public var key = Style(bold: true)
    public var dim = Style(dim: true)
    public var barUsed = Style(reverse: true)
    public var barLocked = Style(bold: true)
    public var barFree = Style(dim: true)
    public var dead = Style(dim: true)

    /// Attributes only.
    public static let monochrome = Theme()

    /// The default look on color terminals.
    public static let colored: Theme = {
        var theme = Theme()
        theme.tabActive = Style(foreground: .black, background: .cyan, bold: true)
        theme.title = Style(foreground: .cyan, bold: true)
        theme.header = Style(foreground: .cyan, bold: true, underline: true)
        theme.cursorCell = Style(foreground: .black, background: .cyan)
        theme.cursorRowNumber = Style(foreground: .black, background: .cyan, bold: true)
        theme.sidebarSelected = Style(foreground: .black, background: .cyan, bold: true)
        theme.sidebarSelectedUnfocused = Style(foreground: .cyan, bold: true, underline: true)
        theme.link = Style(foreground: .blue, underline: true)
        theme.collection = Style(foreground: .magenta)
        theme.number = Style(foreground: .green)
        theme.date = Style(foreground: .yellow)
        theme.identifier = Style(foreground: .magenta)
        theme.marked = Style(foreground: .black, background: .yellow, bold: true)
        theme.statusBar = Style(foreground: .white, background: .blue)
        theme.error = Style(foreground: .red, bold: true)
        theme.prompt = Style(foreground: .yellow, bold: true)
        theme.dialogBorder = Style(foreground: .cyan, bold: true)
        theme.key = Style(foreground: .yellow, bold: true)
        theme.barUsed = Style(foreground: .green)
        theme.barLocked = Style(foreground: .red)
        theme.barFree = Style(foreground: .blue, dim: true)
        theme.dead = Style(foreground: .red, dim: true)
        return theme
    }()

    /// The colored theme, or the monochrome one when the environment sets `NO_COLOR` to any
    /// non-empty value (https://no-color.org).
    public static func forEnvironment(_ environment: [String: String]) -> Theme {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .monochrome }
        return .colored
    }
}
