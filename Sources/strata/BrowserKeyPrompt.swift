import Foundation
import StrataTooling
#if canImport(Glibc)
import Glibc
#endif

/// Asking for the key of an encrypted file when the browser was started without
/// `--encryption-key-file` (Strata and Realm files alike): 128 hex characters, not echoed.
enum BrowserKeyPrompt {
    /// Runs `open` without a key; when it fails because the file is encrypted and standard
    /// input is a terminal, asks for the key and runs `open` again with it.
    static func opening<T>(_ path: String, key: [UInt8]?, _ open: ([UInt8]?) throws -> T) throws -> T {
        do {
            return try open(key)
        } catch let e as CLIError where e.code == ExitCode32.encryption && key == nil && isatty(0) != 0 {
            return try open(try ask(path))
        }
    }

    /// Reads the key from the terminal.
    static func ask(_ path: String) throws -> [UInt8] {
        guard let typed = getpass("\(path) is encrypted. Key (128 hex characters): ").map({ String(cString: $0) }),
              let key = ValueConversion.bytes(hex: typed.trimmingCharacters(in: .whitespaces)), key.count == 64 else {
            throw CLIError("the key must be 128 hex characters (or use --encryption-key-file)", code: ExitCode32.encryption)
        }
        return key
    }
}
