/// A store context as the row-level work written once over SQL sees it (`StoreTransferReader`,
/// `StoreTransferWriter`, `GraphRowWriter`, `idsByNaturalKey`): handed out by every context
/// (`StoreContext.rowAccess`), opaque outside the store, so the public types take any
/// `StoreContext` and still reach the SQL beneath it without a cast.
public struct StoreRowAccess {
    let context: any SQLStoreContext
}
