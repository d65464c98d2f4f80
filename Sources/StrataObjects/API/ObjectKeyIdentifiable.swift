import Foundation

/// A model that is `Identifiable` by the identity of its object, as RealmSwift's
/// `ObjectKeyIdentifiable` (declared on most SwiftUI-era models: `class Dog: Object, ObjectKeyIdentifiable`).
///
/// A managed object's `id` is derived from its class and object key, so two `Dog` instances read
/// from different realms or threads for the same stored object have the same `id`, and it stays
/// the same across commits. An unmanaged object's `id` is the identity of the Swift instance.
/// A model that declares its own `id` property uses that one instead (Swift picks the most
/// specific declaration), as in RealmSwift.
public protocol ObjectKeyIdentifiable: Identifiable, ObjectBase {}

extension ObjectKeyIdentifiable {
    /// The stable identity of this object: class and object key when managed, else the instance.
    public var id: UInt64 {
        guard let key = objectKey else {
            return UInt64(UInt(bitPattern: ObjectIdentifier(self).hashValue))
        }
        // FNV-1a of the class name, then mixed with the key: stable across runs (unlike `Hasher`).
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in Self.className().utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return hash ^ (UInt64(bitPattern: key) &* 0x9e37_79b9_7f4a_7c15)
    }
}
