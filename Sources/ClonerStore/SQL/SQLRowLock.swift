/// How a `SELECT` holds the rows it reads until its transaction ends (`SQLDialect.rowLock`), for
/// writers that run side by side.
enum SQLRowLock {
    /// Against every other lock: a row this transaction decides on and then changes or deletes.
    case update
    /// As `update`, passing over the rows another transaction holds: their owner is alive.
    case updateSkippingLocked
    /// Against other writers of the row, but not against a reference being written to it: the
    /// row's version is checked and bumped while clones may still link it.
    case noKeyUpdate
    /// Against the row's deletion or a change of its key, as a foreign key's check holds it: a
    /// blob about to be referenced.
    case keyShare
}
