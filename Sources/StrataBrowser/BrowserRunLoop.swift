import Foundation
import StrataTooling

/// Runs the browser in the terminal with ncurses until the user quits or a terminating signal
/// arrives; the terminal is restored on every exit path (including thrown errors).
///
/// - Parameters:
///   - dataSource: the file to browse.
///   - environment: the process environment (`NO_COLOR`).
/// - Throws: ``BrowserError`` when there is no usable terminal.
/// - Returns: the signal that stopped the browser, or 0 when the user quit.
@discardableResult
package func runBrowser(dataSource: BrowserDataSource,
                       environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Int32 {
    let backend = try NcursesBackend()
    return try runBrowser(dataSource: dataSource, backend: backend, environment: environment)
}

/// Runs the browser on any backend: draw, sleep until a key / a change / a timed event, handle,
/// draw again. The tests run it on an in-memory backend (ending when its keys run out).
@discardableResult
package func runBrowser(dataSource: BrowserDataSource, backend: TerminalBackend,
                       environment: [String: String] = ProcessInfo.processInfo.environment,
                       clock: @escaping () -> Date = { Date() }) throws -> Int32 {
    try backend.start()
    defer {
        dataSource.setChangeHandler(nil)
        backend.stop()
    }
    dataSource.setChangeHandler(backend.makeWaker())
    var colorEnvironment = environment
    if !backend.supportsColor { colorEnvironment["NO_COLOR"] = "1" }
    let app = BrowserApp(dataSource: dataSource, size: backend.size, environment: colorEnvironment, clock: clock)
    app.onIntermediateFrame = { backend.draw($0) }
    app.filterWake = backend.makeWaker()
    app.processChanges()
    backend.draw(app.frame())
    while !app.shouldQuit {
        // Sleep (no CPU) until input or a change; wake early only for a pending timed event.
        switch backend.waitForEvent(timeoutMilliseconds: app.millisecondsUntilNextTimedEvent()) {
        case .terminate(let signal): return signal
        case .changes: app.processChanges()
        case .input, .timeout: break
        }
        while !app.shouldQuit, let key = backend.readKey() { app.handle(key) }
        backend.draw(app.frame())
    }
    return 0
}
