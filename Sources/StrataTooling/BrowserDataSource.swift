import Foundation
import StrataStorage

/// Everything the browser needs from a database file, by class name and object key.
///
/// The browser is a single-threaded state machine: every method is called from the browser's
/// own thread, except the handler given to ``setChangeHandler(_:)``, which the data source may
/// call from any thread. Implementations read from one snapshot (version) and advance it only in
/// ``pollChanges()``, so the rows the browser sees between two polls are consistent.
///
/// Row positions (`range`, `row`) are positions in the class's results after `filter` and
/// `sort`; objects are identified across positions by ``ObjectRef``. Only the rows in the
/// requested range are read: the browser asks for the visible window and nothing else.
package protocol BrowserDataSource: AnyObject {
    // MARK: File

    /// The file's name and how it was opened (read-only, encrypted); fixed for the session.
    var fileInfo: FileInfo { get }
    /// Version, sizes and participants now.
    func status() -> FileStatus

    // MARK: Schema

    /// Every class with its object count (counts may be estimates for huge classes).
    func classes() -> [ClassSummary]
    /// The properties of a class in display order.
    func properties(className: String) throws -> [PropertyDescription]

    // MARK: Reading

    /// How many objects of `className` match `filter` (a Realm Query Language string, `nil`
    /// for all). An invalid query throws a ``BrowserError`` naming the position.
    func count(className: String, filter: String?) throws -> RowCount
    /// Starts counting the matches of `filter` off the caller's thread; calls `finished` (from
    /// any thread) when the job has its result. Until ``finishFilter(_:)`` the caller may keep
    /// using the data source (it reads its own snapshot). The default counts at once.
    func startFilter(className: String, filter: String, finished: @escaping @Sendable () -> Void) -> FilterJob
    /// Starts ordering `className` (filtered by `filter`) by `sort`, as ``startFilter(className:filter:finished:)``
    /// starts a filter; ``finishFilter(_:)`` takes its result (the count). The default sorts at once.
    func startSort(className: String, filter: String?, sort: SortSpec, finished: @escaping @Sendable () -> Void) -> FilterJob
    /// Takes a finished job's result into the data source (so later `count`/`rows` calls with
    /// the same filter are answered from it) and returns the count; throws the query's error,
    /// or when the job was cancelled.
    func finishFilter(_ job: FilterJob) throws -> RowCount
    /// The objects at positions `range` of `className` filtered and sorted; one value per
    /// property of ``properties(className:)``, in that order.
    func rows(className: String, filter: String?, sort: SortSpec?, range: Range<Int>) throws -> [ObjectRow]
    /// The position of an object in the filtered, sorted results (to keep the cursor on it
    /// when rows move), or `nil` when it is no longer there.
    func position(of object: ObjectRef, filter: String?, sort: SortSpec?) throws -> Int?
    /// One object with every property; throws when it does not exist (any more).
    func object(_ ref: ObjectRef) throws -> ObjectDetail
    /// The objects that link to `ref`, with the property through which they link.
    func backlinks(of ref: ObjectRef) throws -> [Backlink]

    // MARK: Collections (List, MutableSet, Map properties)

    /// Number of items of the collection property `property` of `owner`.
    func collectionCount(owner: ObjectRef, property: String) throws -> Int
    /// Items at positions `range`. For collections of objects each row has the target object's
    /// ref and one value per property of the target class; for primitive collections the row
    /// has no ref and one value; for maps the first value is the key.
    func collectionRows(owner: ObjectRef, property: String, range: Range<Int>) throws -> [ObjectRow]

    // MARK: Writing (each call is one write transaction; values arrive as typed text)

    /// Parses `text` by the property's type and writes it. Throws a ``BrowserError`` with a
    /// message (and changes nothing) when the text is not a valid value.
    func setValue(text: String, property: String, of object: ObjectRef) throws
    /// Creates an object from `values` (property name → text; missing optionals are null).
    @discardableResult
    func createObject(className: String, values: [String: String]) throws -> ObjectRef
    /// Parses one field of a new object exactly as ``createObject(className:values:)`` does,
    /// writing nothing: throws its ``BrowserError`` when the text is not a valid value. The
    /// add form checks each field when it is entered.
    func checkNewObjectField(className: String, property: String, text: String) throws
    /// Deletes an object (embedded objects it owns go with it).
    func deleteObject(_ ref: ObjectRef) throws
    /// Appends an item (parsed from text; for links, the target's primary key or `#key`).
    func addCollectionItem(text: String, owner: ObjectRef, property: String) throws
    /// Replaces the item at `index` of a primitive collection.
    func setCollectionItem(text: String, at index: Int, owner: ObjectRef, property: String) throws
    /// Removes the item at `index`.
    func removeCollectionItem(at index: Int, owner: ObjectRef, property: String) throws
    /// Takes the write lock for the next edit call. Returns nil when no wait is needed (the lock
    /// was free and is now held for the next edit, or the source takes no lock of its own);
    /// otherwise a wait running off the caller's thread that calls `finished` (from any thread)
    /// once it has the lock or failed. The default returns nil.
    func reserveWriteLock(finished: @escaping @Sendable () -> Void) -> WriteLockWait?
    /// Makes the lock of a finished wait the one the next edit call uses; throws its error (or
    /// when it was cancelled).
    func finishWriteLockWait(_ wait: WriteLockWait) throws
    /// Releases a reserved write lock that no edit used (an edit refused before writing).
    func releaseWriteLock()
    /// Who holds the write lock now, read afresh (nil: nobody, or no lock file).
    func writeLockHolderNow() -> WriteLockHolder?

    // MARK: Reports

    /// Commits and live readers.
    func versions() -> VersionsReport
    /// Where the bytes of the file go.
    func space() -> SpaceReport

    // MARK: Compaction

    /// What compaction would give back, and who else has the file open.
    func compactionPlan() -> CompactionPlan
    /// Compacts the file (online: incrementally, while other processes keep it open), calling
    /// `progress` on the caller's thread as work advances.
    func compact(online: Bool, progress: (CompactionProgressReport) -> Void) throws -> CompactionOutcome

    // MARK: Live changes

    /// Registers the function to call (from any thread) when changes are waiting for
    /// ``pollChanges()``; `nil` unregisters. The browser's run loop uses it to wake up.
    func setChangeHandler(_ handler: (@Sendable () -> Void)?)
    /// Advances to the newest version and returns what happened since the last poll
    /// (oldest first). Returns an empty array when nothing changed.
    func pollChanges() -> [ChangeEvent]
}
