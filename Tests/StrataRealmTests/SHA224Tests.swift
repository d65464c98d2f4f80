import XCTest
@testable import StrataRealm

/// SHA-224 and HMAC-SHA-224 against the FIPS 180-4 and RFC 4231 vectors.
final class SHA224Tests: XCTestCase {
    func hex(_ b: [UInt8]) -> String { b.map { String(format: "%02x", $0) }.joined() }

    func testKnownDigests() {
        XCTAssertEqual(hex(SHA224.hash(Array("abc".utf8))), "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7")
        XCTAssertEqual(hex(SHA224.hash([])), "d14a028c2a3a2bc9476102bb288234c415a2b01f828ea62ac5b3e42f")
        XCTAssertEqual(hex(SHA224.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))),
                       "75388b16512776cc5dba5da1fd890150b0c6455cb4f58b1952522525")
        XCTAssertEqual(hex(SHA224.hash([UInt8](repeating: 0x61, count: 1_000_000))),
                       "20794655980c91d8bbb4c1ea97618a4bf03f42581948b2ee4ee7ad67")
    }

    func testHMACVectorsRFC4231() {
        XCTAssertEqual(hex(SHA224.hmac(key: [UInt8](repeating: 0x0b, count: 20), message: Array("Hi There".utf8))),
                       "896fb1128abbdf196832107cd49df33f47b4b1169912ba4f53684b22")
        XCTAssertEqual(hex(SHA224.hmac(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))),
                       "a30e01098bc6dbbf45690f3a7e9e6d0f8bbea2a39e6148008fd05e44")
        XCTAssertEqual(hex(SHA224.hmac(key: [UInt8](repeating: 0xaa, count: 131),
                                       message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8))),
                       "95e9a0db962095adaebe9b2d6f0dbce2d499f112f2d2b7273fa6870e")
    }
}
