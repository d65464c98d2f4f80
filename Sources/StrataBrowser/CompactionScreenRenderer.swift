import StrataTooling

/// The Compaction screen and the compaction dialogs (confirmation, online offer, progress, result).
enum CompactionScreenRenderer {
    /// The screen's lines. `readOnly` is why this file cannot be compacted here, nil when it can:
    /// a read-only file says so instead of what would let a compaction run.
    static func lines(plan: CompactionPlan, history: [CompactionOutcome], readOnly: String?, width: Int, theme: Theme) -> [StyledLine] {
        var lines = [StyledLine("Compaction", theme.title)]
        lines += ChromeRenderer.wrapped(
            "The file takes \(Formatting.bytes(plan.totalBytes)); a full compaction rewrites the live data densely into "
                + "\(Formatting.bytes(plan.expectedBytes)) and gives back \(Formatting.bytes(plan.expectedGain)) "
                + "(\(Formatting.percent(plan.expectedGain, of: plan.totalBytes))).", width: width, style: theme.text)
        lines.append(.blank)
        if let readOnly {
            // "No other process has the file open: a full compaction can run now" above
            // "compaction is disabled" said both; only the second is true.
            lines += ChromeRenderer.wrapped("Read-only: compaction is disabled. " + readOnly, width: width, style: theme.error)
            return lines + historyLines(history, theme: theme)
        }
        if plan.otherParticipants.isEmpty {
            lines.append(StyledLine("No other process has the file open: a full compaction can run now.", theme.text))
        } else {
            lines.append(StyledLine("Other processes have the file open (a full compaction needs it alone):", theme.text))
            for participant in plan.otherParticipants {
                var line = StyledLine()
                line.add("  pid \(participant.pid)", theme.key, width: 12)
                line.add(participant.label, theme.text)
                lines.append(line)
            }
            if plan.onlineAvailable {
                lines += ChromeRenderer.wrapped(
                    "Online compaction works beside them and gives back \(Formatting.bytes(plan.onlineExpectedGain)) now "
                        + "(space still pinned by readers stays).", width: width, style: theme.text)
            }
        }
        lines.append(.blank)
        var action = StyledLine()
        action.add("Press ", theme.text)
        action.add("c", theme.key)
        action.add(" to compact (from any screen).", theme.text)
        lines.append(action)
        return lines + historyLines(history, theme: theme)
    }

    /// "This session" and the compactions run so far, newest first (nothing before the first).
    private static func historyLines(_ history: [CompactionOutcome], theme: Theme) -> [StyledLine] {
        guard !history.isEmpty else { return [] }
        return [.blank, StyledLine("This session", theme.title)]
            + history.reversed().map { StyledLine("  " + BrowserApp.describe($0), theme.text) }
    }

    /// The dialog for a step of the flow: title and lines.
    static func dialog(_ step: CompactionStep, fileName: String, width: Int, theme: Theme) -> (String, [StyledLine]) {
        func keys(_ pairs: [(String, String)]) -> StyledLine {
            var line = StyledLine()
            for (key, text) in pairs {
                line.add(key, theme.key)
                line.add(" \(text)   ", theme.text)
            }
            return line
        }
        switch step {
        case .confirm(let plan):
            var lines = ChromeRenderer.wrapped(
                "Compact \(fileName)? \(Formatting.bytes(plan.totalBytes)) → about \(Formatting.bytes(plan.expectedBytes)), "
                    + "giving back \(Formatting.bytes(plan.expectedGain)) (\(Formatting.percent(plan.expectedGain, of: plan.totalBytes))).",
                width: width)
            lines.append(.blank)
            lines.append(keys(KeyMap.standard.hints(forDialog: "compaction")))
            return ("Compaction", lines)
        case .onlineOffer(let plan):
            var lines = ChromeRenderer.wrapped("\(fileName) is also open in:", width: width)
            for participant in plan.otherParticipants {
                var line = StyledLine()
                line.add("  pid \(participant.pid)", theme.key, width: 12)
                line.add(participant.label, theme.text)
                lines.append(line)
            }
            lines += ChromeRenderer.wrapped("A full compaction needs the file alone.", width: width)
            if plan.onlineAvailable {
                lines += ChromeRenderer.wrapped(
                    "Online compaction runs beside them and gives back about \(Formatting.bytes(plan.onlineExpectedGain)) "
                        + "(\(Formatting.bytes(plan.totalBytes)) → \(Formatting.bytes(plan.onlineExpectedBytes))).", width: width)
                lines.append(.blank)
                lines.append(keys(KeyMap.standard.hints(forDialog: "online")))
            } else {
                lines.append(.blank)
                // Only the way out is left: the cancel key, which closes the dialog.
                lines.append(keys(KeyMap.standard.hints(forDialog: "online").filter { $0.1 == "cancel" }.map { ($0.0, "close") }))
            }
            return ("Other processes have the file open", lines)
        case .running(let online, let progress):
            let percent = "\(Int((progress.fraction * 100).rounded()))%"
            var bar = StyledLine()
            bar.add(ChromeRenderer.progressBar(progress.fraction, width: max(3, width - 5)), theme.barUsed)
            bar.add(" " + percent, theme.text)
            return (online ? "Online compaction" : "Compacting", [StyledLine(progress.phase, theme.text), bar])
        case .finished(let result):
            var lines = ChromeRenderer.wrapped(
                "\(Formatting.bytes(result.beforeBytes)) → \(Formatting.bytes(result.afterBytes)): gave back "
                    + "\(Formatting.bytes(result.beforeBytes - result.afterBytes)) in \(Formatting.duration(result.seconds)).",
                width: width)
            lines.append(.blank)
            lines.append(StyledLine("Press any key.", theme.dim))
            return (result.online ? "Online compaction done" : "Compaction done", lines)
        }
    }
}
