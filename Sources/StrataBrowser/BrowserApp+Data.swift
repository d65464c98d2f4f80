import StrataTooling

/// Keys of the Data screen: sidebar, table and detail navigation, links, backlinks, filter,
/// sort, edit, add, delete.
extension BrowserApp {
    func handleDataKey(_ key: Key) {
        if sidebarFocused {
            handleSidebarKey(key)
            return
        }
        switch KeyMap.standard.action(for: key, in: .data) {
        case .dataBack?: goBack(); return
        case .dataFilter?: startFilter(); return
        case .dataSort?: toggleSort(); return
        case .dataEdit?: startEdit(); return
        case .dataAdd?: startAdd(); return
        case .dataDelete?: startDelete(); return
        case .dataBacklinks?: openBacklinks(); return
        case .dataOpen?: open(); return
        default: break
        }
        switch levels.last {
        case .table(var table)?:
            if let action = KeyMap.standard.action(for: key, in: .table), moveInTable(&table, action) {
                levels[levels.count - 1] = .table(table)
            }
        case .detail(var detail)?:
            if let action = KeyMap.standard.action(for: key, in: .detail), moveInDetail(&detail, action) {
                levels[levels.count - 1] = .detail(detail)
            }
        case nil: break
        }
    }

    private func handleSidebarKey(_ key: Key) {
        switch KeyMap.standard.action(for: key, in: .sidebar) {
        case .sidebarDown?: if selectedClass + 1 < classes.count { selectClass(selectedClass + 1) }
        case .sidebarUp?: if selectedClass > 0 { selectClass(selectedClass - 1) }
        case .sidebarFirst?: selectClass(0)
        case .sidebarLast?: selectClass(classes.count - 1)
        case .sidebarLeave?: sidebarFocused = false
        default: break
        }
    }

    /// Cursor moves in a table; returns whether the table changed.
    private func moveInTable(_ table: inout TableState, _ action: KeyAction) -> Bool {
        let page = dataLayout.visibleTableRows
        switch action {
        case .tableDown: table.cursorRow += 1
        case .tableUp: table.cursorRow -= 1
        case .tableRight: table.cursorColumn += 1
        case .tableLeft:
            if table.cursorColumn == 0, levels.count == 1 {
                sidebarFocused = true
                return false
            }
            table.cursorColumn -= 1
        case .tableFirstRow: table.cursorRow = 0
        case .tableLastRow: table.cursorRow = table.count.value - 1
        case .tableFirstColumn: table.cursorColumn = 0
        case .tableLastColumn: table.cursorColumn = table.columns.count - 1
        case .tableHalfPageDown: table.cursorRow += page / 2; table.topRow += page / 2
        case .tableHalfPageUp: table.cursorRow -= page / 2; table.topRow -= page / 2
        case .tablePageDown: table.cursorRow += page; table.topRow += page
        case .tablePageUp: table.cursorRow -= page; table.topRow -= page
        default: return false
        }
        table.topRow = max(0, table.topRow)
        table.clampCursor(visibleRows: page)
        return true
    }

    private func moveInDetail(_ detail: inout DetailState, _ action: KeyAction) -> Bool {
        let count = detail.detail?.properties.count ?? 0
        let page = max(1, dataLayout.body.height)
        switch action {
        case .detailDown: detail.cursor += 1
        case .detailUp: detail.cursor -= 1
        case .detailFirst: detail.cursor = 0
        case .detailLast: detail.cursor = count - 1
        case .detailPageDown: detail.cursor += page
        case .detailHalfPageDown: detail.cursor += page / 2
        case .detailPageUp: detail.cursor -= page
        case .detailHalfPageUp: detail.cursor -= page / 2
        case .detailLeft:
            if levels.count == 1 { sidebarFocused = true }
            return false
        default: return false
        }
        detail.cursor = max(0, min(detail.cursor, count - 1))
        return true
    }

    // MARK: Path

    /// The object and property under the cursor, wherever the cursor is.
    struct CursorTarget {
        var object: LabeledObjectRef?
        var property: PropertyDescription?
        var value: DisplayValue?
        /// Set when the cursor is on an item of a collection.
        var collection: (owner: ObjectRef, property: PropertyDescription, index: Int)?
    }

    func cursorTarget() -> CursorTarget? {
        loadVisibleRows()  // keys may arrive before the first frame or after the cursor moved
        switch levels.last {
        case .table(let table)?:
            guard let row = table.row(at: table.cursorRow) else { return nil }
            let column = table.columns.indices.contains(table.cursorColumn) ? table.columns[table.cursorColumn] : nil
            let value = row.values.indices.contains(table.cursorColumn) ? row.values[table.cursorColumn] : nil
            var target = CursorTarget(object: row.ref.map { LabeledObjectRef(ref: $0, label: rowLabel(row, table)) },
                                      property: column, value: value)
            if case .collection(let owner, let property) = table.source {
                target.collection = (owner.ref, property, table.cursorRow)
                if row.ref == nil { target.property = property }  // primitive item: the value is the item
            }
            return target
        case .detail(let detail)?:
            // A deleted object's last values are no target: e opened a prompt on them, d asked
            // to delete it again, Enter followed its old links.
            guard detail.deletedMessage == nil else { return nil }
            guard let object = detail.detail, object.properties.indices.contains(detail.cursor) else { return nil }
            return CursorTarget(object: detail.link, property: object.properties[detail.cursor], value: object.values[detail.cursor])
        case nil:
            return nil
        }
    }

    /// When the shown object was deleted (by another process, or this browser elsewhere), says so
    /// with the way out and returns true: nothing under the cursor can be opened, edited or deleted.
    func showIfDeleted() -> Bool {
        guard case .detail(let detail)? = levels.last, let problem = detail.deletedMessage else { return false }
        show("\(problem): Backspace goes back", error: true)
        return true
    }

    /// A short label of a row's object: its primary key/first column and a name when there is one.
    func rowLabel(_ row: ObjectRow, _ table: TableState) -> String {
        if case .backlinks = table.source, case .link(let link)? = row.values.first { return link.label }
        var parts: [String] = []
        let name = table.columns.firstIndex { $0.name == "name" }
        if let primary = table.columns.firstIndex(where: \.isPrimaryKey), row.values.indices.contains(primary) {
            // Long keys (ObjectIds, UUIDs) make poor labels when there is a name.
            let key = row.values[primary].formatted.text
            if key.count <= 12 || name == nil { parts.append(key) }
        }
        if let name, row.values.indices.contains(name) {
            parts.append(row.values[name].formatted.text)
        }
        if parts.isEmpty, let ref = row.ref { parts.append("#\(ref.key)") }
        return parts.joined(separator: " ")
    }

    /// Enter: follow a link, open a collection, or open the row's object.
    func open() {
        if showIfDeleted() { return }
        guard let target = cursorTarget() else { return }
        if case .collection? = target.value, let property = target.property, property.kind.isCollection, let owner = target.object {
            openCollection(owner: owner, property: property)
            return
        }
        if let linked = target.value?.linkedObject, case .link(let link)? = target.value {
            push(.detail(DetailState(link: LabeledObjectRef(ref: linked, label: link.label))))
            return
        }
        if let linked = target.value?.linkedObject, case .embedded(let link)? = target.value {
            push(.detail(DetailState(link: LabeledObjectRef(ref: linked, label: link.label))))
            return
        }
        if case .table = levels.last, let object = target.object {
            push(.detail(DetailState(link: object)))
            return
        }
        if target.value == .null { show("null: nothing to open") }
    }

    private func openCollection(owner: LabeledObjectRef, property: PropertyDescription) {
        var columns: [PropertyDescription]
        if let target = property.targetClass {
            columns = (try? dataSource.properties(className: target)) ?? []
        } else {
            columns = [PropertyDescription(name: "value", type: property.type)]
        }
        if property.kind == .map { columns.insert(PropertyDescription(name: "key", type: .string), at: 0) }
        push(.table(TableState(source: .collection(owner: owner, property: property), columns: columns)))
    }

    /// `b`: the objects that link to the object under the cursor.
    func openBacklinks() {
        if showIfDeleted() { return }
        guard let object = cursorTarget()?.object else {
            show("no object under the cursor")
            return
        }
        let columns = [PropertyDescription(name: "object", type: .object, kind: .link, targetClass: nil),
                       PropertyDescription(name: "class", type: .string),
                       PropertyDescription(name: "via property", type: .string)]
        push(.table(TableState(source: .backlinks(target: object), columns: columns)))
    }

    private func push(_ level: DataLevel) {
        levels.append(level)
        reloadCurrentLevel()
        if case .detail(let detail)? = levels.last, let problem = detail.deletedMessage {
            levels.removeLast()
            show(problem, error: true)
        }
    }

    /// Backspace: one level back along the path.
    func goBack() {
        guard levels.count > 1 else {
            show("already at the class table (Backspace goes back along links)")
            return
        }
        levels.removeLast()
        reloadCurrentLevel()
    }

    /// Reads the rows of the visible window of the shown table (only those).
    func loadVisibleRows() {
        guard case .table(var table)? = levels.last else { return }
        reloadCurrentLevel()
        if case .table(let fresh)? = levels.last { table = fresh }
        let visible = dataLayout.visibleTableRows
        let wanted = table.topRow..<min(table.count.value, table.topRow + visible)
        if let window = table.window, window.range.lowerBound <= wanted.lowerBound, window.range.upperBound >= wanted.upperBound {
            return
        }
        do {
            let rows: [ObjectRow]
            switch table.source {
            case .objects(let className):
                rows = wanted.isEmpty ? [] : try dataSource.rows(className: className, filter: table.filter, sort: table.sort, range: wanted)
            case .collection(let owner, let property):
                rows = wanted.isEmpty ? [] : try dataSource.collectionRows(owner: owner.ref, property: property.name, range: wanted)
            case .backlinks(let target):
                let all = try dataSource.backlinks(of: target.ref)
                rows = all[wanted.clamped(to: 0..<all.count)].map {
                    ObjectRow(ref: $0.source.ref, values: [.link($0.source), .string($0.source.ref.className), .string($0.property)])
                }
            }
            table.window = (wanted, rows)
        } catch {
            table.window = (wanted, [])
            show(Self.describe(error), error: true)
        }
        levels[levels.count - 1] = .table(table)
    }
}
