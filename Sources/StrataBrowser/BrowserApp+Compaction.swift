import StrataTooling

/// The compaction flow: `c` → confirmation (or the online offer when other processes have the
/// file open) → progress → before/after sizes in the Log and the status bar.
extension BrowserApp {
    func startCompaction() {
        if refuseIfReadOnly() { return }
        let plan = dataSource.compactionPlan()
        compactionPlan = plan
        overlay = .compaction(plan.otherParticipants.isEmpty ? .confirm(plan) : .onlineOffer(plan))
    }

    /// Keys of the compaction dialog (`compaction` context of `Resources/keymap.json`). Enter
    /// takes the dialog's one way forward: a full compaction, or the online one when others
    /// have the file open.
    func handleCompactionKey(_ key: Key, _ step: CompactionStep) {
        let action = KeyMap.standard.action(for: key, in: .compaction)
        switch step {
        case .confirm:
            switch action {
            case .compactionConfirm?: runCompaction(online: false)
            case .compactionCancel?: overlay = nil; show("compaction cancelled")
            default: break
            }
        case .onlineOffer(let plan):
            switch action {
            case .compactionOnline? where plan.onlineAvailable: runCompaction(online: true)
            case .compactionConfirm? where plan.onlineAvailable && key == .enter: runCompaction(online: true)
            case .compactionCancel?: overlay = nil; show("compaction cancelled")
            default: break
            }
        case .running:
            break  // compaction runs inside handle(); no key arrives meanwhile
        case .finished(let result):
            overlay = nil
            show(Self.describe(result))
        }
    }

    private func runCompaction(online: Bool) {
        overlay = .compaction(.running(online: online, progress: CompactionProgressReport(fraction: 0, phase: "starting")))
        onIntermediateFrame?(frame())
        do {
            let result = try dataSource.compact(online: online) { progress in
                overlay = .compaction(.running(online: online, progress: progress))
                onIntermediateFrame?(frame())
            }
            lastCompaction = result
            compactionHistory.append(result)
            overlay = .compaction(.finished(result))
            appendLog(.compaction, Self.describe(result))
            processChanges()
            refreshAfterChange()
            compactionPlan = dataSource.compactionPlan()
        } catch {
            overlay = nil
            show("compaction failed: \(Self.describe(error))", error: true)
        }
    }

    /// `online compaction: 612.3 MiB → 540.0 MiB (−72.3 MiB) in 0.77 s`.
    static func describe(_ result: CompactionOutcome) -> String {
        "\(result.online ? "online compaction" : "compaction"): \(Formatting.bytes(result.beforeBytes)) → "
            + "\(Formatting.bytes(result.afterBytes)) (−\(Formatting.bytes(result.beforeBytes - result.afterBytes))) "
            + "in \(Formatting.duration(result.seconds))"
    }
}
