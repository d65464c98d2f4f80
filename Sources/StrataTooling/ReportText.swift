// Column padding and byte counts for the reports the commands print (one implementation,
// shared by every command and report).

/// Pads to a display width (wide characters count twice).
package func pad(_ s: String, _ width: Int, right: Bool = false) -> String {
    let w = DisplayWidth.of(s)
    if w >= width { return s }
    let fill = String(repeating: " ", count: width - w)
    return right ? fill + s : s + fill
}

/// `1.2 MiB (1,234,567 bytes)`.
package func bytesText(_ n: Int64) -> String {
    n < 1024 ? "\(n) bytes" : "\(Formatting.bytes(n)) (\(Formatting.number(n)) bytes)"
}

