/// Key dispatch: overlays and prompts first, then global keys, then the screen's own keys.
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
        switch key {
        case .character("q"), .control("c"), .control("q"):
            shouldQuit = true
            return
        case .character("?"):
            overlay = .help
            return
        case .tab:
            switchTo(BrowserScreen(rawValue: screen.rawValue % BrowserScreen.allCases.count + 1)!)
            return
        case .backTab:
            switchTo(BrowserScreen(rawValue: (screen.rawValue + BrowserScreen.allCases.count - 2) % BrowserScreen.allCases.count + 1)!)
            return
        case .character(let character) where ("1"..."5").contains(character):
            switchTo(BrowserScreen(rawValue: Int(String(character))!)!)
            return
        case .character("c"):
            startCompaction()
            return
        default: break
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
        switch key {
        case .down, .character("j"): offset += 1
        case .up, .character("k"): offset -= 1
        case .pageDown, .control("d"): offset += key == .pageDown ? page : page / 2
        case .pageUp, .control("u"): offset -= key == .pageUp ? page : page / 2
        case .character("g"), .home: offset = 0
        case .character("G"), .end: offset = Int.max / 2
        default: return
        }
        // Renderers clamp the offset to their content.
        scroll[screen] = max(0, offset)
    }

    private func handleOverlayKey(_ key: Key, _ overlay: Overlay) {
        switch overlay {
        case .help:
            if [.escape, .character("?"), .character("q"), .enter].contains(key) { self.overlay = nil }
        case .confirm(_, let action):
            switch key {
            case .character("y"), .character("Y"):
                self.overlay = nil
                perform(action)
            case .character("n"), .character("N"), .escape, .character("q"):
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
        switch key {
        case .escape:
            prompt = nil
            show("cancelled")
        case .enter:
            prompt = nil
            submit(current)
        case .control("c"), .control("q"):
            overlay = .confirm(question: "An edit is pending. Quit and discard it?", action: .quit)
            prompt = current
        case .resize(let columns, let rows):
            resize(to: TerminalSize(columns: columns, rows: rows))
        default:
            if current.edit(key) { prompt = current }
        }
    }

    private func perform(_ action: ConfirmAction) {
        switch action {
        case .quit:
            prompt = nil
            shouldQuit = true
        case .deleteObject(let link):
            write("deleted \(link.ref.className) \(link.label)") { try dataSource.deleteObject(link.ref) }
            if case .detail(let detail)? = levels.last, detail.link.ref == link.ref, levels.count > 1 { levels.removeLast() }
            reloadCurrentLevel()
        case .removeCollectionItem(let owner, let property, let index, let label):
            write("removed \(label) from \(property.name)") {
                try dataSource.removeCollectionItem(at: index, owner: owner, property: property.name)
            }
        }
    }
}
