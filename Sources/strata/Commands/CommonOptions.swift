import ArgumentParser
import Foundation
import Strata
import StrataTooling
import StrataStorage

/// Options every subcommand that opens a database accepts; it opens the database with the key
/// read from `--encryption-key-file` (passed explicitly: there is no process-wide key).
struct CommonOptions: ParsableArguments {
    @Option(name: .customLong("encryption-key-file"), help: ArgumentHelp("A file holding the 64-byte key (raw, or 128 hex characters) of an encrypted database.", valueName: "K"))
    var encryptionKeyFile: String?

    /// The key from `--encryption-key-file`, or nil without the option.
    func key() throws -> [UInt8]? {
        try encryptionKeyFile.map(readKeyFile)
    }

    /// Opens an existing database with this command's key (missing files are refused).
    func open(_ path: String, readOnly: Bool, label: String) throws -> Database {
        try openDatabase(path, readOnly: readOnly, label: label, key: try key())
    }

    /// Opens a file for a read-only command: a Strata database read-only, or a `.realm` file
    /// through the Realm reader (never written, nothing created beside it).
    func openReadable(_ path: String, label: String) throws -> ReadableFile {
        if ReadableFile.isRealmFile(path) { return .realm(try openRealmFile(path, key: try key())) }
        return .strata(try open(path, readOnly: true, label: label))
    }
}

/// A subcommand whose work is `run(output:)`: output goes through a `CommandOutput` (the
/// process's stdout/stderr, or a buffer in tests) and the result is an exit code or a thrown
/// `CLIError`; nothing below `main` calls `exit`.
protocol StrataSubcommand: ParsableCommand {
    func run(output: CommandOutput) throws -> Int32
}

extension StrataSubcommand {
    /// ArgumentParser's entry point (main calls `run(output:)` directly).
    mutating func run() throws {
        let out = StandardOutput()
        let code = try run(output: out)
        try out.flush()
        if code != 0 { throw ExitCode(code) }
    }
}

/// Reads a 64-byte key: 64 raw bytes, or 128 hex characters (surrounding whitespace ignored).
func readKeyFile(_ path: String) throws -> [UInt8] {
    guard let data = FileManager.default.contents(atPath: path) else {
        throw CLIError("\(path): cannot read the key file; check the path and permissions", code: ExitCode32.encryption)
    }
    if data.count == 64 { return [UInt8](data) }
    let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    if text.count == 128, let bytes = ValueConversion.bytes(hex: text) { return bytes }
    if text.count == 128, let bad = text.enumerated().first(where: { !$0.element.isHexDigit }) {
        throw CLIError("\(path): character \(bad.offset + 1) of the key, \(String(bad.element).debugDescription), is not a hex digit (0-9, a-f)", code: ExitCode32.encryption)
    }
    if data.count != 64, text.count != 128, text.allSatisfy(\.isHexDigit) {
        throw CLIError("\(path): the key has \(text.count) hex digits; it needs 128 (64 bytes)", code: ExitCode32.encryption)
    }
    throw CLIError("\(path): a key file must hold 64 raw bytes or 128 hex characters (it has \(data.count) bytes)", code: ExitCode32.encryption)
}
