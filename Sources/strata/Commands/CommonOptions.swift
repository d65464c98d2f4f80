import ArgumentParser
import Foundation
import Strata
import StrataBench
import StrataBrowser
import StrataStorage
#if canImport(Glibc)
import Glibc
#endif

/// Options every subcommand accepts.
struct CommonOptions: ParsableArguments {
    @Option(name: .customLong("encryption-key-file"), help: ArgumentHelp("A file holding the 64-byte key (raw, or 128 hex characters) of an encrypted database.", valueName: "K"))
    var encryptionKeyFile: String?

    /// Reads the key file (when given); `openDatabase` then opens files with that key.
    func checkEncryption() throws {
        guard let path = encryptionKeyFile else { return }
        EncryptionKeyHolder.key = try readKeyFile(path)
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
    throw CLIError("\(path): a key file must hold 64 raw bytes or 128 hex characters (it has \(data.count) bytes)", code: ExitCode32.encryption)
}
