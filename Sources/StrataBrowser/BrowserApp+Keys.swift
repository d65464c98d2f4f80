/// Key dispatch: overlays and prompts first, then global keys, then the screen's own keys.
/// Which key runs which action is `Resources/keymap.json` (``KeyMap``); here actions become code.
extension BrowserApp {
    func dispatch(_ key: Key) {
        // An overlay (a confirmation asked while a prompt is open) takes keys before the prompt.
        if let overlay {
            handleOverlayKey(key, overlay)
            return
        }
        if prompt != nil {
            handlePromptKey(key)
            return
        }
        message = nil
        if let action = KeyMap.standard.action(for: key, in: .global) {
            switch action {
            case .quit: shouldQuit = true
            case .help: overlay = .help
            case .screenNext:
                switchTo(BrowserScreen(rawValue: screen.rawValue % BrowserScreen.allCases.count + 1)!)
            case .screenPrevious:
                switchTo(BrowserScreen(rawValue: (screen.rawValue + BrowserScreen.allCases.count - 2) % BrowserScreen.allCases.count + 1)!)
            case .screenData: switchTo(.data)
            case .screenVersions: switchTo(.versions)
            case .screenSpace: switchTo(.space)
            case .screenLog: switchTo(.log)
            case .screenCompaction: switchTo(.compaction)
            case .compact: startCompaction()
            case .reload: reloadSnapshot()
            default: break
            }
            return
        }
        switch screen {
        case .data: handleDataKey(key)
        case .versions, .space, .log, .compaction: handleScrollKey(key)
        }
    }

    func switchTo(_ newScreen: BrowserScreen) {
        screen = newScreen
        switch newScreen {
        case .versions: versionsReport = dataSource.versions()
        case .space: spaceReport = dataSource.space()
        case .compaction: compactionPlan = dataSource.compactionPlan()
        case .data: reloadCurrentLevel()
        case .log: break
        }
    }

    /// Scrolling of the report screens.
    private func handleScrollKey(_ key: Key) {
        let page = max(1, ScreenLayout(size: size).content.height - 2)
        var offset = scroll[screen, default: 0]
        switch KeyMap.standard.action(for: key, in: .report) {
        case .reportDown?: offset += 1
        case .reportUp?: offset -= 1
        case .reportPageDown?: offset += page
        case .reportHalfPageDown?: offset += page / 2
        case .reportPageUp?: offset -= page
        case .reportHalfPageUp?: offset -= page / 2
        case .reportTop?: offset = 0
        case .reportEnd?: offset = Int.max / 2
        default: return
        }
        // Renderers clamp the offset to their content.
        scroll[screen] = max(0, offset)
    }

    private func handleOverlayKey(_ key: Key, _ overlay: Overlay) {
        switch overlay {
        case .help:
            if KeyMap.standard.action(for: key, in: .help) == .helpClose { self.overlay = nil }
        case .confirm(_, let action):
            switch KeyMap.standard.action(for: key, in: .confirm) {
            case .confirmYes?:
                self.overlay = nil
                perform(action)
            case .confirmNo?:
                self.overlay = nil
                if prompt == nil { show("cancelled") }
            default: break
            }
        case .compaction(let step):
            handleCompactionKey(key, step)
        }
    }

    private func handlePromptKey(_ key: Key) {
        guard var current = prompt else { return }
        if case .resize(let columns, let rows) = key {
            resize(to: TerminalSize(columns: columns, rows: rows))
            return
        }
        switch KeyMap.standard.action(for: key, in: .prompt) {
        case .promptCancel?:
            prompt = nil
            show("cancelled")
        case .promptAccept?:
            prompt = nil
            submit(current)
        case .promptQuit?:
            overlay = .confirm(question: "An edit is pending. Quit and discard it?", action: .quit)
            prompt = current
        case .promptEdit?:
            if current.edit(key) { prompt = current }
        default:
            // Typed text: printable characters go into the prompt.
            if case .character = key, current.edit(key) { prompt = current }
        }
    }

    private func perform(_ action: ConfirmAction) {
        switch action {
        case .quit:
            prompt = nil
            shouldQuit = true
        case .deleteObject(let link):
            write("deleted \(link.ref.className) \(link.label)", { try self.dataSource.deleteObject(link.ref) }, then: { written in
                if written, case .detail(let detail)? = self.levels.last, detail.link.ref == link.ref, self.levels.count > 1 { self.levels.removeLast() }
                self.reloadCurrentLevel()
            })
        case .removeCollectionItem(let owner, let property, let index, let label):
            write("removed \(label) from \(property.name)") {
                try self.dataSource.removeCollectionItem(at: index, owner: owner, property: property.name)
            }
        }
    }
}
