import StrataTooling

/// What a table in the Data screen lists.
enum TableSource: Hashable {
    /// All objects of a class (filterable and sortable).
    case objects(className: String)
    /// The items of a List/Set/Map property of an object.
    case collection(owner: LabeledObjectRef, property: PropertyDescription)
    /// The objects that link to an object.
    case backlinks(target: LabeledObjectRef)
}

/// A table view: its source, columns, cursor and the rows of the visible window.
struct TableState {
    var source: TableSource
    var columns: [PropertyDescription]
    var filter: String?
    var sort: SortSpec?
    var count = RowCount(0)
    var cursorRow = 0
    var cursorColumn = 0
    var topRow = 0
    var leftColumn = 0
    /// The rows last read and the positions they cover; only the visible window is ever read.
    var window: (range: Range<Int>, rows: [ObjectRow])?
    /// Set when the data changed and the count/window must be read again.
    var isStale = true

    init(source: TableSource, columns: [PropertyDescription]) {
        self.source = source
        self.columns = columns
    }

    /// The cached row at a position, if it is in the window.
    func row(at position: Int) -> ObjectRow? {
        guard let window, window.range.contains(position) else { return nil }
        let index = position - window.range.lowerBound
        return index < window.rows.count ? window.rows[index] : nil
    }

    /// The class whose objects are the rows (for editing cells of object rows).
    var rowClass: String? {
        switch source {
        case .objects(let className): className
        case .collection(_, let property): property.targetClass
        case .backlinks: nil
        }
    }

    /// Keeps the cursor inside the rows and columns, and visible in a window of `visibleRows`.
    mutating func clampCursor(visibleRows: Int) {
        cursorRow = max(0, min(cursorRow, count.value - 1))
        cursorColumn = max(0, min(cursorColumn, columns.count - 1))
        if cursorRow < topRow { topRow = cursorRow }
        if cursorRow >= topRow + visibleRows { topRow = cursorRow - visibleRows + 1 }
        topRow = max(0, min(topRow, max(0, count.value - visibleRows)))
        if cursorColumn < leftColumn { leftColumn = cursorColumn }
    }
}

/// An object detail view: one line per property.
struct DetailState {
    var link: LabeledObjectRef
    var detail: ObjectDetail?
    var cursor = 0
    var top = 0
    /// Set when the object was deleted (by us or another process) while shown.
    var deletedMessage: String?
    var isStale = true
}

/// One level of the path in the Data screen (Backspace goes back one level).
enum DataLevel {
    case table(TableState)
    case detail(DetailState)

    /// Breadcrumb text for this level.
    var crumb: String {
        switch self {
        case .table(let table):
            switch table.source {
            case .objects(let className):
                var text = className
                if let filter = table.filter { text += " [\(filter)]" }
                return text
            case .collection(_, let property): return property.name
            case .backlinks(let target): return "backlinks of \(target.label)"
            }
        case .detail(let detail): return detail.link.label.isEmpty ? "#\(detail.link.ref.key)" : detail.link.label
        }
    }
}
