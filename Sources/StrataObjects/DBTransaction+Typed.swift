import Foundation
import StrataStorage

extension DBTransaction {
    /// The value of property `index` of a typed model class (`ClassInfo`) for the object `key`:
    /// the typed accessors' read. Plain values skip the name lookups and, in a read
    /// transaction, the tree search when the previous read was in the same cluster; links,
    /// mixed values and errors take `value(_:_:_:)`.
    func typedValue(_ info: ClassInfo, _ key: ObjKey, _ index: Int) throws -> Value {
        let t = try table(info.className)
        let column = t.typedColumn(info, index) { info.properties.map(\.name) }
        if column >= 0, let v = try t.readSingle(key: key, column: column) { return v }
        return try value(info.className, key, info.properties[index].name)
    }
}
