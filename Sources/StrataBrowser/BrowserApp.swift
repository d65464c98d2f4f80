import Foundation
import StrataTooling

/// The browser as a state machine: feed it ``Key``s and change notifications, ask it for a
/// frame. It knows nothing about terminals; ``runBrowser(dataSource:options:)`` connects it to
/// ncurses, tests drive it directly and snapshot ``frame()``.
package final class BrowserApp {
    /// How long rows changed by a commit stay marked.
    package static let markDuration: TimeInterval = 1.5

    package let dataSource: BrowserDataSource
    package internal(set) var size: TerminalSize
    package internal(set) var screen: BrowserScreen = .data
    /// Set when the user quit; the run loop stops.
    package internal(set) var shouldQuit = false
    /// Log lines, oldest first.
    package private(set) var log: [LogEntry] = []
    /// Called with intermediate frames while a long operation (compaction) runs inside
    /// ``handle(_:)``, so the run loop can show progress.
    package var onIntermediateFrame: ((CellBuffer) -> Void)?

    let theme: Theme
    let clock: () -> Date
    var status: FileStatus
    var classes: [ClassSummary]
    var selectedClass = 0
    var sidebarFocused = false
    /// The path in the Data screen; the last level is shown. Never empty while a class exists.
    var levels: [DataLevel] = []
    var prompt: Prompt?
    /// A filter running off the UI thread; while it runs only Esc / Ctrl-C (cancel) and resize act.
    var filterJob: FilterJob?
    /// The object the cursor was on when a sort started (kept under the cursor when it is applied).
    var sortCursorObject: ObjectRef?
    /// How long Enter waits for a filter before showing "filtering…" and returning to the loop.
    package var filterGraceSeconds = 0.15
    /// Wakes the run loop when a background filter or a wait for the write lock finishes (set
    /// by `runBrowser`).
    package var filterWake: (@Sendable () -> Void)?
    /// An edit waiting for the write lock held by another process or handle; while it waits only
    /// Esc / Ctrl-C (give up) and resize act.
    var pendingWrite: PendingWrite?
    /// How long an edit waits for the write lock before the message line names the holder.
    package var writeLockGraceSeconds = 0.15
    var overlay: Overlay?
    var message: StatusMessage?
    /// Objects changed by recent commits → when their mark expires.
    var marks: [ObjectRef: Date] = [:]
    var versionsReport: VersionsReport?
    var spaceReport: SpaceReport?
    var compactionPlan: CompactionPlan?
    var lastCompaction: CompactionOutcome?
    var compactionHistory: [CompactionOutcome] = []
    /// Scroll offsets of the list screens.
    var scroll: [BrowserScreen: Int] = [:]
    /// The Versions screen's bottom line when scrolled down (its index and text), with the offset
    /// it was drawn at: a report with new commits (newest first) finds that line again, so the
    /// view stays on it.
    var versionsAnchor: (scroll: Int, line: Int, text: String)?

    /// - Parameters:
    ///   - dataSource: the file to browse.
    ///   - size: the terminal size.
    ///   - environment: process environment (`NO_COLOR` turns colors off).
    ///   - clock: the time source (tests pass a fixed or stepped clock).
    package init(dataSource: BrowserDataSource, size: TerminalSize,
                environment: [String: String] = ProcessInfo.processInfo.environment,
                clock: @escaping () -> Date = { Date() }) {
        self.dataSource = dataSource
        self.size = size
        self.clock = clock
        theme = Theme.forEnvironment(environment)
        status = dataSource.status()
        classes = dataSource.classes()
        if let first = classes.firstIndex(where: { !$0.isEmbedded }) ?? classes.indices.first {
            selectClass(first)
        }
        appendLog(.info, "opened \(dataSource.fileInfo.path) at version \(status.version)"
                  + (dataSource.fileInfo.isReadOnly ? " (read-only)" : ""))
        for warning in dataSource.fileInfo.openWarnings { appendLog(.error, "warning: \(warning)") }
    }

    // MARK: Public API

    /// Handles one key (or resize) and updates the state; draw ``frame()`` afterwards.
    package func handle(_ key: Key) {
        if case .resize(let columns, let rows) = key {
            resize(to: TerminalSize(columns: columns, rows: rows))
            return
        }
        if pendingWrite != nil && !pollWriteLockWait() {
            if key == .escape || key == .control("c") { cancelWriteLockWait() }
            return
        }
        if filterJob != nil {
            if pollFilter() {
                // Finished meanwhile: the key acts on the new view below.
            } else {
                if key == .escape || key == .control("c") { cancelFilter() }
                return
            }
        }
        dispatch(key)
    }

    /// Changes the terminal size (also done by `Key.resize`).
    package func resize(to newSize: TerminalSize) {
        size = TerminalSize(columns: max(0, newSize.columns), rows: max(0, newSize.rows))
        clampDataCursor()
    }

    /// Renders the current state into a new buffer, reading only the visible rows.
    package func frame() -> CellBuffer {
        var buffer = CellBuffer(width: size.columns, height: size.rows)
        let layout = ScreenLayout(size: size)
        let now = clock()
        removeExpiredMarks(now: now)
        if let tabBar = layout.tabBar { ChromeRenderer.tabBar(selected: screen, theme: theme, into: &buffer, rect: tabBar) }
        renderScreen(into: &buffer, rect: layout.content, now: now)
        if let line = layout.messageLine { renderMessageLine(into: &buffer, rect: line) }
        if let bar = layout.statusBar {
            ChromeRenderer.statusBar(info: dataSource.fileInfo, status: status, lastCompaction: lastCompaction,
                                     notice: reloadNotice, theme: theme, into: &buffer, rect: bar)
        }
        if let overlay { renderOverlay(overlay, into: &buffer, now: now) }
        return buffer
    }

    /// Reads pending changes from the data source (new commits), refreshes what is shown,
    /// marks changed rows and logs each event. Call when the change handler fired.
    package func processChanges() {
        pollFilter()
        pollWriteLockWait()
        let events = dataSource.pollChanges()
        // A handle opened or closed without a commit: the status bar's count changes alone.
        status = dataSource.status()
        guard !events.isEmpty else { return }
        let now = clock()
        for event in events {
            for ref in event.changedObjects { marks[ref] = now.addingTimeInterval(Self.markDuration) }
            for ref in event.deletedObjects { marks[ref] = nil }
            // pid 0: the file changed without a commit record naming its process.
            let who = !event.isExternal ? "this browser" : event.pid == 0 ? "another process" : "pid \(event.pid)"
            switch event.kind {
            case .commit: appendLog(.commit, "v\(event.version) by \(who): \(event.summary)")
            case .compaction: appendLog(.compaction, "compaction by \(who): \(event.summary)")
            case .error: appendLog(.error, event.summary)
            }
        }
        refreshAfterChange()
    }

    /// Milliseconds until a timed change of the frame (a mark expiring), or `nil` when nothing
    /// is pending: the run loop then sleeps until a key or a change arrives.
    package func millisecondsUntilNextTimedEvent() -> Int? {
        // Who holds the write lock changes without a commit: redraw each second while an edit
        // waits for it or the Versions screen shows it.
        let tick: Int? = pendingWrite != nil || screen == .versions ? 1000 : nil
        guard let next = marks.values.min() else { return tick }
        let untilMark = max(0, Int((next.timeIntervalSince(clock()) * 1000).rounded(.up)))
        return min(untilMark, tick ?? untilMark)
    }

    /// Whether any row is marked as recently changed.
    package var hasMarkedRows: Bool { !marks.isEmpty }

    // MARK: State helpers

    /// The shown level of the Data screen.
    var currentLevel: DataLevel? { levels.last }

    var dataLayout: DataLayout {
        DataLayout(content: ScreenLayout(size: size).content, sidebarFocused: sidebarFocused)
    }

    func appendLog(_ kind: LogEntry.Kind, _ text: String) {
        log.append(LogEntry(time: clock(), kind: kind, text: text))
        // Newest first: an entry arrives at the top, one line. A Log scrolled down to read older
        // entries stays on them (they slid down under the reader with every commit).
        if let offset = scroll[.log], offset > 0 { scroll[.log] = offset + 1 }
        if log.count > 1000 { log.removeFirst(log.count - 1000) }
    }

    func show(_ text: String, error: Bool = false) {
        message = StatusMessage(text: text, isError: error)
        if error { appendLog(.error, text) }
    }

    func removeExpiredMarks(now: Date) {
        marks = marks.filter { $0.value > now }
    }

    /// Opens the table of a class as the root of the Data screen path.
    func selectClass(_ index: Int) {
        guard classes.indices.contains(index) else { return }
        selectedClass = index
        let name = classes[index].name
        let columns = (try? dataSource.properties(className: name)) ?? []
        levels = [.table(TableState(source: .objects(className: name), columns: columns))]
        reloadCurrentLevel()
    }

    /// Re-reads the shown level if it is stale: counts, the cursor's object position, details.
    func reloadCurrentLevel() {
        guard var level = levels.popLast() else { return }
        defer { levels.append(level) }
        switch level {
        case .table(var table):
            reload(&table)
            level = .table(table)
        case .detail(var detail):
            reload(&detail)
            level = .detail(detail)
        }
    }

    func reload(_ table: inout TableState) {
        guard table.isStale else { return }
        let cursorObject = table.row(at: table.cursorRow)?.ref
        let cursorOffset = table.cursorRow - table.topRow
        do {
            switch table.source {
            case .objects(let className):
                table.count = try dataSource.count(className: className, filter: table.filter)
                if let cursorObject, let position = try dataSource.position(of: cursorObject, filter: table.filter, sort: table.sort),
                   position != table.cursorRow {
                    // Keep the cursor on the same object, at the same place on screen.
                    table.cursorRow = position
                    table.topRow = max(0, position - cursorOffset)
                }
            case .collection(let owner, let property):
                table.count = RowCount(try dataSource.collectionCount(owner: owner.ref, property: property.name))
            case .backlinks(let target):
                table.count = RowCount(try dataSource.backlinks(of: target.ref).count)
            }
        } catch {
            show(Self.describe(error), error: true)
        }
        table.window = nil
        table.isStale = false
        table.clampCursor(visibleRows: dataLayout.visibleTableRows)
    }

    func reload(_ detail: inout DetailState) {
        guard detail.isStale else { return }
        detail.isStale = false
        do {
            detail.detail = try dataSource.object(detail.link.ref)
            detail.deletedMessage = nil
            detail.cursor = min(detail.cursor, max(0, (detail.detail?.properties.count ?? 1) - 1))
        } catch {
            detail.deletedMessage = Self.describe(error)
        }
    }

    /// After a commit: refresh status, counts, the shown view and the reports; other levels of
    /// the path are re-read when they are shown again.
    func refreshAfterChange() {
        status = dataSource.status()
        let selectedName = classes.indices.contains(selectedClass) ? classes[selectedClass].name : nil
        classes = dataSource.classes()
        if let selectedName, let index = classes.firstIndex(where: { $0.name == selectedName }) { selectedClass = index }
        for index in levels.indices {
            switch levels[index] {
            case .table(var table): table.isStale = true; levels[index] = .table(table)
            case .detail(var detail): detail.isStale = true; levels[index] = .detail(detail)
            }
        }
        reloadCurrentLevel()
        if let filtered = message?.filtered, case .table(let table)? = levels.last, case .objects(let className) = table.source,
           className == filtered.className, table.filter == filtered.filter {
            message = .filterResult(className: className, filter: filtered.filter, count: table.count)
        }
        versionsReport = screen == .versions ? dataSource.versions() : nil
        spaceReport = screen == .space ? dataSource.space() : nil
        compactionPlan = screen == .compaction ? dataSource.compactionPlan() : nil
    }

    func clampDataCursor() {
        guard case .table(var table)? = levels.last else { return }
        table.clampCursor(visibleRows: dataLayout.visibleTableRows)
        levels[levels.count - 1] = .table(table)
    }

    /// The message of an error for the user (with the query position when there is one).
    static func describe(_ error: Error) -> String {
        if let error = error as? BrowserError { return error.description }
        return String(describing: error)
    }
}
