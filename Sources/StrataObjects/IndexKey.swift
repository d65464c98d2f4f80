import Foundation
import StrataStorage

/// Keys of secondary indexes (`i/<Class>/<property>` trees): an order-preserving encoding of
/// the value, then the object key (8 bytes, big-endian, sign flipped) so equal values of
/// different objects are distinct entries. Value encoding: 0x00 for null; 0x01 then the value —
/// integers and dates as 8 bytes big-endian with the sign flipped, bool as one byte, strings
/// with 0x00 escaped as 0x00 0xFF and terminated by 0x00 0x00 (so no encoding is a prefix of
/// another), objectId/uuid raw.
enum IndexKey {
    static func valuePrefix(_ v: Value) -> [UInt8] {
        var out: [UInt8] = []
        switch v {
        case .null: return [0]
        case .bool(let b): out = [1, b ? 1 : 0]
        case .int(let i): out = [1] + ClusterKey.encode(i)
        case .date(let t): out = [1] + ClusterKey.encode(t.nanosecondsSince1970)
        case .string(let s):
            out = [1]
            out.reserveCapacity(min(s.utf8.count, longString) + 12)
            for b in s.utf8.prefix(longString) { if b == 0 { out += [0, 0xFF] } else { out.append(b) } }
            if s.utf8.count > longString {
                // Long strings: a prefix and a hash of the whole (lookups re-check the value).
                out[0] = 2
                out += withUnsafeBytes(of: Checksum.hash(Array(s.utf8)).bigEndian) { Array($0) }
            }
            out += [0, 0]
        case .objectId(let o): out = [1] + o.bytes
        case .uuid(let u): out = [1] + ValueCodec.uuidBytes(u)
        case .object(let l): out = [1] + ClusterKey.encode(l.key)
        default: out = [1] + Array(v.description.utf8) + [0, 0]
        }
        return out
    }

    /// Strings longer than this are indexed by prefix + hash (tree keys are at most 1 KB).
    static let longString = 400

    static func key(_ v: Value, _ k: ObjKey) -> [UInt8] { valuePrefix(v) + ClusterKey.encode(k) }

    static func objKey(from key: [UInt8]) -> ObjKey { ClusterKey.decode(Array(key.suffix(8))) }
}
