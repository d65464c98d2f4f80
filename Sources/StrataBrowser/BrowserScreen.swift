/// The screens of the browser, in tab order (number keys 1–5).
package enum BrowserScreen: Int, CaseIterable, Sendable {
    case data = 1, versions, space, log, compaction

    /// Tab label.
    package var title: String {
        switch self {
        case .data: "Data"
        case .versions: "Versions"
        case .space: "Space"
        case .log: "Log"
        case .compaction: "Compaction"
        }
    }
}
