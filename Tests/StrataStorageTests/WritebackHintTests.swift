import XCTest
@testable import StrataStorage

/// A large transaction asks the kernel to start writing its pages as it goes (each
/// `WriteTransaction.writebackHintBytes` written), so its commit's sync waits only for the last
/// part; small commits never do. The hint changes nothing about durability: the pages stay
/// unsynced until the commit's sync (a power loss before it still drops them).
final class WritebackHintTests: XCTestCase {
    func testLargeTransactionsHintWritebackSmallOnesDoNot() throws {
        try assertLargeTransactionsHint(StoreOptions())
    }

    /// In an encrypted file the hint reaches the file under the encrypting layer (whose pages a
    /// large transaction writes out early).
    func testLargeEncryptedTransactionsHintWritebackToo() throws {
        try assertLargeTransactionsHint(encryptedOptions())
    }

    private func assertLargeTransactionsHint(_ options: StoreOptions) throws {
        let dir = TempDir()
        let path = dir.path("hint.strata")
        let (store, made) = try FaultInjectingFileIO.openStore(path: path, options: options)
        // About 10 MiB of values in one transaction (the staging buffer writes 4 MiB at a time).
        let w = try store.beginWrite()
        let t = try w.tree("t", create: true)!
        for i in 0..<20000 { try t.put(key(i), bytes: [UInt8](repeating: UInt8(i % 251), count: 500)) }
        try w.commit()
        let hints = made.writebackHints
        XCTAssertGreaterThanOrEqual(hints.count, 2, "a 10 MiB transaction should start writeback as it writes")
        XCTAssertTrue(hints.allSatisfy { $0 > 0 }, "each hint follows unsynced writes: \(hints)")
        // Small commits: no hint.
        for i in 0..<20 {
            let s = try store.beginWrite()
            try s.tree("t")!.put(key(i), bytes: [1, 2, 3])
            try s.commit()
        }
        XCTAssertEqual(made.writebackHints.count, hints.count, "small commits give no writeback hint")
        assertSound(store)
        let r = try store.beginRead()
        XCTAssertEqual(try r.tree("t")?.getBytes(key(19999)), [UInt8](repeating: UInt8(19999 % 251), count: 500))
        r.end()
    }

    /// A power loss after a hinted large transaction's writes but before its sync leaves the
    /// previous version: the hint did not make anything durable early in the protocol's eyes.
    func testPowerLossBeforeTheSyncOfAHintedTransactionKeepsThePreviousVersion() throws {
        let dir = TempDir()
        let path = dir.path("loss.strata")
        do {
            let s = try Store(path: path)
            let w = try s.beginWrite()
            try w.tree("t", create: true)!.put(key(0), bytes: [7])
            try w.commit()
            s.close()
        }
        let (store, made) = try FaultInjectingFileIO.openStore(path: path)
        made.crashAtSync = made.syncs + 1
        let w = try store.beginWrite()
        let t = try w.tree("t")!
        for i in 1..<7000 { try t.put(key(i), bytes: [UInt8](repeating: 3, count: 500)) }
        XCTAssertThrowsError(try w.commit())
        XCTAssertFalse(made.writebackHints.isEmpty, "the transaction should have hinted writeback")
        store.close()
        let reopened = try Store(path: path)
        let r = try reopened.beginRead()
        XCTAssertEqual(try r.tree("t")?.entries().map(\.key), [key(0)])
        r.end()
        assertSound(reopened)
        reopened.close()
    }
}
