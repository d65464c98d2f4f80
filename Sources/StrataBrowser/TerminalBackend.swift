/// The size of a terminal in cells.
package struct TerminalSize: Hashable, Sendable {
    package var columns: Int
    package var rows: Int

    package init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }
}

/// Why ``TerminalBackend/waitForEvent(timeoutMilliseconds:)`` returned.
package enum BackendWake: Hashable, Sendable {
    /// Keys are waiting to be read.
    case input
    /// The data source's change handler fired.
    case changes
    /// The timeout passed.
    case timeout
    /// SIGINT, SIGTERM or SIGHUP arrived: restore the terminal and stop.
    case terminate(signal: Int32)
}

/// A terminal: draws cell buffers and delivers keys. Screens never talk to it; the run loop
/// hands it finished frames. ``NcursesBackend`` is the real one; the tests have an in-memory one.
package protocol TerminalBackend: AnyObject {
    /// Current size (after the latest resize event).
    var size: TerminalSize { get }
    /// Whether the terminal shows colors.
    var supportsColor: Bool { get }
    /// Takes over the terminal.
    func start() throws
    /// Restores the terminal; safe to call more than once.
    func stop()
    /// Puts a frame on the screen.
    func draw(_ buffer: CellBuffer)
    /// Blocks without using CPU until a key, a change notification, a signal or the timeout
    /// (`nil`: no timeout).
    func waitForEvent(timeoutMilliseconds: Int?) -> BackendWake
    /// The next pending key, or `nil` when none is waiting (never blocks).
    func readKey() -> Key?
    /// A function the data source's change handler may call from any thread to wake
    /// ``waitForEvent(timeoutMilliseconds:)``.
    func makeWaker() -> @Sendable () -> Void
}
