/// What compaction would do now.
public struct CompactionPlan: Hashable, Sendable {
    public var totalBytes: Int64
    /// Expected file size after compaction.
    public var expectedBytes: Int64
    /// Expected file size after an online compaction (only space no reader needs is given back).
    public var onlineExpectedBytes: Int64
    /// Other processes that have the file open: a full compaction is refused while any do.
    public var otherParticipants: [Participant]
    /// Whether online (incremental) compaction can run with others present.
    public var onlineAvailable: Bool

    public init(totalBytes: Int64, expectedBytes: Int64, onlineExpectedBytes: Int64, otherParticipants: [Participant], onlineAvailable: Bool) {
        self.totalBytes = totalBytes
        self.expectedBytes = expectedBytes
        self.onlineExpectedBytes = onlineExpectedBytes
        self.otherParticipants = otherParticipants
        self.onlineAvailable = onlineAvailable
    }

    /// Bytes compaction would give back.
    public var expectedGain: Int64 { max(0, totalBytes - expectedBytes) }
    /// Bytes online compaction would give back.
    public var onlineExpectedGain: Int64 { max(0, totalBytes - onlineExpectedBytes) }
}

/// A process that has the file open.
public struct Participant: Hashable, Sendable {
    public var pid: Int32
    /// What it is, if known (command name or thread label).
    public var label: String

    public init(pid: Int32, label: String) {
        self.pid = pid
        self.label = label
    }
}

/// Progress of a running compaction.
public struct CompactionProgressReport: Hashable, Sendable {
    /// 0...1.
    public var fraction: Double
    /// What is being done (`copying Person`, `syncing`, …).
    public var phase: String

    public init(fraction: Double, phase: String) {
        self.fraction = fraction
        self.phase = phase
    }
}

/// The outcome of a compaction.
public struct CompactionOutcome: Hashable, Sendable {
    public var beforeBytes: Int64
    public var afterBytes: Int64
    /// Wall time in seconds.
    public var seconds: Double
    public var online: Bool

    public init(beforeBytes: Int64, afterBytes: Int64, seconds: Double, online: Bool) {
        self.beforeBytes = beforeBytes
        self.afterBytes = afterBytes
        self.seconds = seconds
        self.online = online
    }
}
