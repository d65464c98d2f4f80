import CNcurses
import Foundation
import StrataTooling
#if canImport(Glibc)
import Glibc
#endif

/// The real terminal: ncursesw draws the cell buffer and reads keys. The run loop blocks in
/// `poll()` on stdin and on a self-pipe written by the data source's change handler (and by the
/// SIGINT/SIGTERM/SIGHUP handlers), so the browser uses no CPU while idle and wakes at once.
package final class NcursesBackend: TerminalBackend {
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private var started = false

    /// Creates the self-pipe; the terminal is taken over by ``start()``.
    package init() throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw BrowserError("cannot create a pipe: \(String(cString: strerror(errno)))") }
        wakeRead = fds[0]
        wakeWrite = fds[1]
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
    }

    deinit {
        stop()
        close(wakeRead)
        close(wakeWrite)
    }

    package var size: TerminalSize { TerminalSize(columns: Int(cn_columns()), rows: Int(cn_rows())) }
    package var supportsColor: Bool { cn_has_colors() != 0 }

    /// Why the terminal type `term` (the `TERM` variable) cannot run the browser, nil when it
    /// may: unset, or `dumb` (no cursor movement: ncurses started, and every frame piled up on
    /// one line, unreadable).
    package static func unsupportedTerminal(term: String?) -> String? {
        let advice = "run it in a terminal such as xterm-256color, or use a subcommand such as 'strata info FILE'"
        guard let term, !term.isEmpty else { return "TERM is not set, so the browser cannot tell how to draw; set it (TERM=xterm-256color) or \(advice)" }
        if term == "dumb" { return "TERM=dumb cannot move the cursor, which the browser needs; \(advice)" }
        return nil
    }

    package func start() throws {
        let term = ProcessInfo.processInfo.environment["TERM"]
        if let problem = Self.unsupportedTerminal(term: term) { throw BrowserError(problem) }
        guard cn_start() == 0 else {
            if isatty(STDIN_FILENO) != 0, isatty(STDOUT_FILENO) != 0, let term {
                throw BrowserError("cannot open the terminal: TERM=\(term) has no terminal description (terminfo) here; "
                                   + "set TERM to a type this system knows, such as xterm-256color")
            }
            throw BrowserError("cannot open the terminal: stdin and stdout must be a terminal and TERM must be set")
        }
        cn_install_signal_handlers(wakeWrite)
        started = true
    }

    package func stop() {
        guard started else { return }
        started = false
        cn_stop()
    }

    package func draw(_ buffer: CellBuffer) {
        let colors = supportsColor
        var scalars: [UInt32] = []
        for y in 0..<buffer.height {
            for x in 0..<buffer.width {
                let cell = buffer[x, y]
                guard cell.width != 0 else { continue }  // right half of a wide character
                scalars.removeAll(keepingCapacity: true)
                for scalar in cell.text.unicodeScalars { scalars.append(scalar.value) }
                if scalars.isEmpty { scalars.append(32) }
                let style = cell.style
                var attributes: Int32 = 0
                if style.bold { attributes |= Int32(CN_ATTR_BOLD) }
                if style.reverse { attributes |= Int32(CN_ATTR_REVERSE) }
                if style.underline { attributes |= Int32(CN_ATTR_UNDERLINE) }
                if style.dim { attributes |= Int32(CN_ATTR_DIM) }
                let foreground = colors ? Int32(style.foreground?.rawValue ?? -1) : -1
                let background = colors ? Int32(style.background?.rawValue ?? -1) : -1
                cn_put(Int32(y), Int32(x), scalars, Int32(scalars.count), attributes, foreground, background)
            }
        }
        if let cursor = buffer.cursor {
            cn_set_cursor(1, Int32(cursor.y), Int32(cursor.x))
        } else {
            cn_set_cursor(0, 0, 0)
        }
        cn_refresh()
    }

    package func waitForEvent(timeoutMilliseconds: Int?) -> BackendWake {
        var fds = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        let timeout = Int32(clamping: timeoutMilliseconds ?? -1)
        let ready = poll(&fds, 2, timeout)
        if cn_pending_signal() != 0 { return .terminate(signal: cn_pending_signal()) }
        if ready < 0 { return .input }  // EINTR (SIGWINCH): ncurses has a KEY_RESIZE waiting
        if ready == 0 { return .timeout }
        if fds[1].revents != 0 {
            // Change notifications and SIGWINCH share the pipe; a resize is picked up by readKey.
            var drain = [UInt8](repeating: 0, count: 256)
            var sawChange = false
            while true {
                let count = read(wakeRead, &drain, drain.count)
                if count <= 0 { break }
                if drain[0..<count].contains(1) { sawChange = true }
            }
            return sawChange ? .changes : .input
        }
        return .input
    }

    package func readKey() -> Key? {
        if cn_take_resize() != 0 { return .resize(columns: Int(cn_columns()), rows: Int(cn_rows())) }
        var code: UInt32 = 0
        switch Int(cn_read_key(&code)) {
        case Int(CN_KEY_CHARACTER):
            switch code {
            case 9: return .tab
            case 27: return .escape
            case 1...26: return .control(Character(Unicode.Scalar(code + 96)!))
            default: return Unicode.Scalar(code).map { .character(Character($0)) } ?? readKey()
            }
        case Int(CN_KEY_FUNCTION):
            switch Int(code) {
            case Int(CN_FN_UP): return .up
            case Int(CN_FN_DOWN): return .down
            case Int(CN_FN_LEFT): return .left
            case Int(CN_FN_RIGHT): return .right
            case Int(CN_FN_PAGE_UP): return .pageUp
            case Int(CN_FN_PAGE_DOWN): return .pageDown
            case Int(CN_FN_HOME): return .home
            case Int(CN_FN_END): return .end
            case Int(CN_FN_BACKSPACE): return .backspace
            case Int(CN_FN_DELETE): return .delete
            case Int(CN_FN_ENTER): return .enter
            case Int(CN_FN_BACK_TAB): return .backTab
            case Int(CN_FN_RESIZE): return .resize(columns: Int(cn_columns()), rows: Int(cn_rows()))
            default: return readKey()  // ignore keys the browser does not use
            }
        default:
            return nil
        }
    }

    package func makeWaker() -> @Sendable () -> Void {
        let fd = wakeWrite
        return {
            var byte: UInt8 = 1
            _ = write(fd, &byte, 1)  // non-blocking: a full pipe already means "wake up"
        }
    }
}
