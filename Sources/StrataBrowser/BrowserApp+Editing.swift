import StrataTooling

/// Filter, sort, edit, add and delete: prompts, validation by the data source, one write each.
extension BrowserApp {
    func startFilter() {
        guard case .table(let table)? = levels.last, case .objects(let className) = table.source else {
            show("/ filters class tables (Backspace back to one)")
            return
        }
        prompt = filterPrompt(className: className, text: table.filter ?? "")
    }

    func filterPrompt(className: String, text: String) -> Prompt {
        Prompt(purpose: .filter(className: className), label: "Filter \(className) (Realm Query Language): ", text: text)
    }

    /// `s`: sort by the column under the cursor; again reverses. The cursor stays on its object.
    func toggleSort() {
        guard case .table(let table)? = levels.last, case .objects(let className) = table.source,
              table.columns.indices.contains(table.cursorColumn) else {
            show("s sorts class tables; lists keep their order")
            return
        }
        let column = table.columns[table.cursorColumn].name
        let newSort: SortSpec? = table.sort?.property == column
            ? SortSpec(property: column, ascending: !(table.sort?.ascending ?? true))
            : SortSpec(property: column, ascending: true)
        sortCursorObject = table.row(at: table.cursorRow)?.ref
        // The order is computed off the UI thread like a filter (``FilterJob``): Esc cancels it.
        let wake = filterWake
        let job = dataSource.startSort(className: className, filter: table.filter, sort: newSort!, finished: { wake?() })
        filterJob = job
        if job.wait(seconds: filterGraceSeconds) { pollFilter() }
    }

    /// Switches the table to a finished sort job's order, the cursor staying on its object; an
    /// error keeps the previous order.
    private func applySortResult(_ job: FilterJob) {
        let cursorObject = sortCursorObject
        sortCursorObject = nil
        guard let sort = job.sort, case .table(var table)? = levels.last, case .objects(let className) = table.source,
              className == job.className else { return }
        do {
            _ = try dataSource.finishFilter(job)
            if let cursorObject, let position = try dataSource.position(of: cursorObject, filter: table.filter, sort: sort) {
                table.cursorRow = position
                table.topRow = max(0, position - dataLayout.visibleTableRows / 2)
            }
        } catch {
            show(Self.describe(error), error: true)
            return
        }
        table.sort = sort
        table.window = nil
        table.clampCursor(visibleRows: dataLayout.visibleTableRows)
        levels[levels.count - 1] = .table(table)
        show("sorted by \(sort.property) \(sort.ascending ? "ascending" : "descending")")
    }

    /// Whether edits are allowed; shows why not.
    func refuseIfReadOnly() -> Bool {
        guard dataSource.fileInfo.isReadOnly else { return false }
        show(dataSource.fileInfo.readOnlyReason ?? "read-only: this file was opened with --read-only, edits are disabled", error: true)
        return true
    }

    /// `e`: edit the value under the cursor.
    func startEdit() {
        if refuseIfReadOnly() || showIfDeleted() { return }
        guard let target = cursorTarget(), let property = target.property else {
            show("nothing to edit here")
            return
        }
        if let item = target.collection, target.object == nil {
            prompt = Prompt(purpose: .editCollectionItem(owner: item.owner, property: item.property, index: item.index),
                            label: "Item \(item.index + 1) of \(item.property.name) (\(item.property.type.displayName)): ",
                            text: target.value?.editText ?? "")
            return
        }
        guard let object = target.object else { return }
        if case .table(let table)? = levels.last, case .backlinks = table.source {
            show("backlinks are computed; Enter opens the linking object")
            return
        }
        guard property.isEditableInPlace else {
            show("\(property.name) is \(property.typeDescription): Enter opens it")
            return
        }
        prompt = Prompt(purpose: .editValue(ref: object.ref, property: property),
                        label: "\(object.ref.className).\(property.name) (\(property.typeDescription)): ",
                        text: target.value?.editText ?? "")
    }

    /// `a`: add an object (field by field) or an item to the open collection.
    func startAdd() {
        if refuseIfReadOnly() { return }
        switch levels.last {
        case .table(let table)?:
            switch table.source {
            case .objects(let className):
                if classes.first(where: { $0.name == className })?.isEmbedded == true {
                    show("\(className) is embedded: its objects live inside their parent")
                    return
                }
                let fields = table.columns.filter(\.isEditableInPlace)
                guard !fields.isEmpty else { return }
                prompt = addObjectPrompt(className: className, fields: fields, field: 0, values: [:])
            case .collection(let owner, let property):
                guard property.kind != .backlinks else {
                    show("\(property.name) is computed from links and cannot be edited")
                    return
                }
                let hint = property.kind == .map ? "key=value" : property.targetClass.map { "\($0) primary key or #key" } ?? property.type.displayName
                prompt = Prompt(purpose: .addCollectionItem(owner: owner.ref, property: property),
                                label: "Add to \(property.name) (\(hint)): ")
            case .backlinks:
                show("backlinks are computed; add a link from the other object")
            }
        case .detail?:
            show("a adds in a table: Backspace to the class table, or Enter on a list")
        case nil:
            break
        }
    }

    func addObjectPrompt(className: String, fields: [PropertyDescription], field: Int, values: [String: String]) -> Prompt {
        let property = fields[field]
        var label = "New \(className) \(field + 1)/\(fields.count) · \(property.name) (\(property.typeDescription)"
        if property.isPrimaryKey { label += ", primary key" }
        if property.isOptional { label += ", empty = null" }
        return Prompt(purpose: .addObject(className: className, fields: fields, field: field, values: values), label: label + "): ")
    }

    /// `d`: delete the object (or remove the collection item) after a y/n confirmation.
    func startDelete() {
        if refuseIfReadOnly() || showIfDeleted() { return }
        guard let target = cursorTarget() else {
            show("nothing to delete here")
            return
        }
        if let item = target.collection {
            let label = target.object?.label ?? target.value?.formatted.text ?? "item"
            overlay = .confirm(question: "Remove item \(item.index + 1) (\(label)) from \(item.property.name)?",
                               action: .removeCollectionItem(owner: item.owner, property: item.property, index: item.index, label: label))
            return
        }
        guard let object = target.object else { return }
        overlay = .confirm(question: "Delete \(object.ref.className) \(object.label)?", action: .deleteObject(object))
    }

    /// Enter in a prompt.
    func submit(_ submitted: Prompt) {
        let text = submitted.text
        switch submitted.purpose {
        case .filter(let className):
            applyFilter(text.trimmingCharacters(in: .whitespaces).isEmpty ? nil : text, className: className)
        case .editValue(let ref, let property):
            write("\(ref.className).\(property.name) = \(text)", {
                try self.dataSource.setValue(text: text, property: property.name, of: ref)
            }, refused: submitted)
        case .editCollectionItem(let owner, let property, let index):
            write("\(property.name)[\(index + 1)] = \(text)", {
                try self.dataSource.setCollectionItem(text: text, at: index, owner: owner, property: property.name)
            }, refused: submitted)
        case .addCollectionItem(let owner, let property):
            write("added \(text) to \(property.name)", {
                try self.dataSource.addCollectionItem(text: text, owner: owner, property: property.name)
            }, refused: submitted, then: { _ in
                if case .table(var table)? = self.levels.last {
                    table.cursorRow = table.count.value - 1
                    table.clampCursor(visibleRows: self.dataLayout.visibleTableRows)
                    self.levels[self.levels.count - 1] = .table(table)
                }
            })
        case .addObject(let className, let fields, let field, var values):
            // Each field is parsed when it is entered (as the create parses it): a bad value
            // keeps the form on its field, with the error and everything typed so far.
            do {
                try dataSource.checkNewObjectField(className: className, property: fields[field].name, text: text)
            } catch {
                var again = submitted
                again.error = Self.describe(error)
                prompt = again
                appendLog(.error, "\(className).\(fields[field].name): \(Self.describe(error))")
                return
            }
            values[fields[field].name] = text
            if field + 1 < fields.count {
                prompt = addObjectPrompt(className: className, fields: fields, field: field + 1, values: values)
                return
            }
            let created = CreatedObject()
            write("created \(className)", { created.ref = try self.dataSource.createObject(className: className, values: values) }, then: { _ in
                if let ref = created.ref, case .table(var table)? = self.levels.last,
                   let position = try? self.dataSource.position(of: ref, filter: table.filter, sort: table.sort) {
                    table.cursorRow = position
                    table.clampCursor(visibleRows: self.dataLayout.visibleTableRows)
                    self.levels[self.levels.count - 1] = .table(table)
                }
            })
        }
    }

    /// Applies a filter: a new query runs off the UI thread (``FilterJob``); the view changes
    /// when it finishes, and Esc cancels it meanwhile (see ``pollFilter()``).
    private func applyFilter(_ filter: String?, className: String) {
        guard let filter else {
            applyFilterResult(nil, className: className) { try dataSource.count(className: className, filter: nil) }
            return
        }
        let wake = filterWake
        let job = dataSource.startFilter(className: className, filter: filter, finished: { wake?() })
        filterJob = job
        // A quick query is applied at once, without a "filtering" message flashing by.
        if job.wait(seconds: filterGraceSeconds) { pollFilter() }
    }

    /// Applies the running filter's result once it is there; returns whether one was applied.
    /// The run loop calls it when the job wakes it.
    @discardableResult
    package func pollFilter() -> Bool {
        guard let job = filterJob, job.isFinished else { return false }
        filterJob = nil
        if job.sort != nil {
            applySortResult(job)
        } else {
            applyFilterResult(job.filter, className: job.className) { try dataSource.finishFilter(job) }
        }
        return true
    }

    /// Esc (or Ctrl-C) while a filter runs: stop it and keep the view as it was.
    func cancelFilter() {
        guard let job = filterJob else { return }
        job.cancel()
        filterJob = nil
        if let sort = job.sort {
            sortCursorObject = nil
            show("sort cancelled: \(sort.property)")
        } else {
            show("filter cancelled: \(job.filter)")
        }
    }

    private func applyFilterResult(_ filter: String?, className: String, _ count: () throws -> RowCount) {
        guard case .table(var table)? = levels.last else { return }
        do {
            // Count first: an invalid query throws here and the previous view stays as it was.
            let count = try count()
            table.filter = filter
            table.count = count
            table.cursorRow = 0
            table.topRow = 0
            table.window = nil
            levels[levels.count - 1] = .table(table)
            if let filter {
                message = .filterResult(className: className, filter: filter, count: count)
            } else {
                show("filter cleared")
            }
        } catch {
            let description = (error as? BrowserError).map { error in
                error.position.map { "query error at \($0 + 1): \(error.message)" } ?? "query error: \(error.message)"
            } ?? Self.describe(error)
            show(description, error: true)
            // The query comes back in its prompt, as typed, to be corrected (the prompt opened
            // on the table's previous filter, and the text was lost).
            if let filter, prompt == nil, overlay == nil {
                var again = filterPrompt(className: className, text: filter)
                again.error = description
                prompt = again
            }
        }
    }

    /// Runs one write; on success picks up the commit (log, marks, refresh) and confirms; then
    /// runs `then` (cursor moves) with whether it was written.
    ///
    /// When another process or handle holds the write lock, the write waits for it off the UI
    /// thread (``PendingWrite``): after ``writeLockGraceSeconds`` the message line names the
    /// holder, the screen keeps drawing, and Esc gives up (nothing is written; the Log says so).
    ///
    /// `refused` is the prompt the value was typed in: when the write refuses the value (not a
    /// date, no such link target, …) that prompt opens again with the error above it and the
    /// text as typed, so a typo is corrected rather than typed again.
    func write(_ what: String, _ body: @escaping () throws -> Void, refused: Prompt? = nil,
               then: @escaping (_ written: Bool) -> Void = { _ in }) {
        let wake = filterWake
        if let wait = dataSource.reserveWriteLock(finished: { wake?() }) {
            let pending = PendingWrite(what: what, body: body, refused: refused, then: then, wait: wait)
            guard wait.wait(seconds: writeLockGraceSeconds) else {
                pendingWrite = pending
                appendLog(.info, "waiting for the write lock held by \(wait.holder.map { "\($0)" } ?? "another writer") to write \(what)")
                return
            }
            complete(pending)
            return
        }
        then(perform(what, body, refused: refused))
    }

    /// Returns whether the write went through.
    private func perform(_ what: String, _ body: () throws -> Void, refused: Prompt? = nil) -> Bool {
        defer { dataSource.releaseWriteLock() }
        do {
            try body()
            processChanges()
            show(what)
            return true
        } catch {
            // Another process may have committed (deleted the object): the snapshot moves first.
            if refused != nil { processChanges() }
            show(Self.describe(error), error: true)
            // The prompt comes back with the text as typed (unless another one opened meanwhile,
            // while the write waited for the lock, or its object is gone).
            if var again = refused, prompt == nil, targetExists(of: again) {
                again.error = Self.describe(error)
                prompt = again
            }
            return false
        }
    }

    /// Whether the object a value prompt writes to is still there (another process may have
    /// deleted it meanwhile: its prompt is not opened again, no text could be written).
    private func targetExists(of prompt: Prompt) -> Bool {
        switch prompt.purpose {
        case .editValue(let ref, _), .editCollectionItem(let ref, _, _), .addCollectionItem(let ref, _):
            return (try? dataSource.object(ref)) != nil
        case .filter, .addObject:
            return true
        }
    }

    /// A finished wait: the edit runs with the lock it took (or the wait's error is shown).
    private func complete(_ pending: PendingWrite) {
        do {
            try dataSource.finishWriteLockWait(pending.wait)
        } catch {
            show(Self.describe(error), error: true)
            pending.then(false)
            return
        }
        pending.then(perform(pending.what, pending.body, refused: pending.refused))
    }

    /// Runs the waiting edit once its wait for the write lock has finished; returns whether it
    /// did. The run loop calls it when the wait wakes it (``processChanges()`` does too).
    @discardableResult
    package func pollWriteLockWait() -> Bool {
        guard let pending = pendingWrite, pending.wait.isFinished else { return false }
        pendingWrite = nil
        complete(pending)
        return true
    }

    /// Esc (or Ctrl-C) while an edit waits for the write lock: give up; nothing is written.
    func cancelWriteLockWait() {
        guard let pending = pendingWrite else { return }
        let holder = pending.wait.holder
        pending.wait.cancel()
        pendingWrite = nil
        let text = "not written (cancelled while waiting for the write lock"
            + (holder.map { " held by \($0)" } ?? "") + "): \(pending.what)"
        show(text)
        appendLog(.info, text)
        pending.then(false)
    }

    /// The message line while an edit waits for the write lock: "waiting for the write lock held
    /// by pid N (label) since T — Esc cancels", without "since T" when that does not fit `width`.
    func writeLockWaitLine(width: Int) -> String? {
        guard let pending = pendingWrite else { return nil }
        guard let holder = pending.wait.holder else { return "waiting for the write lock — Esc cancels" }
        let full = "waiting for the write lock held by \(holder) — Esc cancels"
        if DisplayWidth.of(full) <= width { return full }
        return "waiting for the write lock held by pid \(holder.pid)" + (holder.label.isEmpty ? "" : " (\(holder.label))") + " — Esc cancels"
    }
}

/// An edit waiting for the write lock: what it writes, the write itself, what follows it.
struct PendingWrite {
    var what: String
    var body: () throws -> Void
    /// The prompt to open again when the value is refused (see ``BrowserApp/write(_:_:refused:then:)``).
    var refused: Prompt?
    var then: (_ written: Bool) -> Void
    var wait: WriteLockWait
}

/// The object an add creates, filled in by the write (which may run after a wait).
final class CreatedObject {
    var ref: ObjectRef?
}
