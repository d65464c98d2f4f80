/// What compaction would do now.
package struct CompactionPlan: Hashable, Sendable {
    package var totalBytes: Int64
    /// Expected file size after compaction.
    package var expectedBytes: Int64
    /// Expected file size after an online compaction (only space no reader needs is given back).
    package var onlineExpectedBytes: Int64
    /// Other processes that have the file open: a full compaction is refused while any do.
    package var otherParticipants: [Participant]
    /// Whether online (incremental) compaction can run with others present.
    package var onlineAvailable: Bool

    package init(totalBytes: Int64, expectedBytes: Int64, onlineExpectedBytes: Int64, otherParticipants: [Participant], onlineAvailable: Bool) {
        self.totalBytes = totalBytes
        self.expectedBytes = expectedBytes
        self.onlineExpectedBytes = onlineExpectedBytes
        self.otherParticipants = otherParticipants
        self.onlineAvailable = onlineAvailable
    }

    /// Bytes compaction would give back.
    package var expectedGain: Int64 { max(0, totalBytes - expectedBytes) }
    /// Bytes online compaction would give back.
    package var onlineExpectedGain: Int64 { max(0, totalBytes - onlineExpectedBytes) }
}

/// A process that has the file open.
package struct Participant: Hashable, Sendable {
    package var pid: Int32
    /// What it is, if known (command name or thread label).
    package var label: String

    package init(pid: Int32, label: String) {
        self.pid = pid
        self.label = label
    }
}

/// Progress of a running compaction.
package struct CompactionProgressReport: Hashable, Sendable {
    /// 0...1.
    package var fraction: Double
    /// What is being done (`copying Person`, `syncing`, …).
    package var phase: String

    package init(fraction: Double, phase: String) {
        self.fraction = fraction
        self.phase = phase
    }
}

/// The outcome of a compaction.
package struct CompactionOutcome: Hashable, Sendable {
    package var beforeBytes: Int64
    package var afterBytes: Int64
    /// Wall time in seconds.
    package var seconds: Double
    package var online: Bool

    package init(beforeBytes: Int64, afterBytes: Int64, seconds: Double, online: Bool) {
        self.beforeBytes = beforeBytes
        self.afterBytes = afterBytes
        self.seconds = seconds
        self.online = online
    }
}
