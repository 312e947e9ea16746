import ClonerModel

/// The whole-store document `cloner export --all` writes and `cloner import --all` reads
/// (docs/architecture.md#moving-a-whole-store): newline-delimited JSON like the graph document,
/// read with the same line reader, so it streams both ways and every refusal names its line.
///
/// 1. a header: `kind: "header"`, `format: "cloner-store"`, `version`, the model's `fingerprint`
///    and the `tables` in the order they follow, each with its `columns` (name and type);
/// 2. the blob section: for each stored value, in key order, `kind: "blob"` with its `hash`
///    (SHA-256, hex) and `size`, then its chunks in order, `kind: "chunk"` with `hash`, `n` and
///    `bytes` (base64, at most 1 MiB each); then the section's summary;
/// 3. for each table, its rows in key order, `kind: "row"` with `table` and `values` (in the
///    header's column order: integers, dates as milliseconds since 1970, doubles as JSON numbers
///    or `"NaN"`/`"Infinity"`/`"-Infinity"`, uuids and JSON values as strings, a binary value as
///    its blob's hex key), then its summary;
/// 4. a last line, `kind: "end"`, with the count of summaries: a document cut short has none.
///
/// A summary (`kind: "summary"`) gives the `table`, its `rows`, a `checksum` and, for an
/// entity, `highestID` (the highest `_id` its table ever issued), for the blob section its
/// `bytes`. The checksum is the SHA-256 of the section's rows, each as its `values` array in the
/// compact form above followed by a newline (a blob as `[hash, size]`): the export computes it
/// from what it wrote, the import from what it read and again from what the store holds after
/// writing it, and refuses the move unless all three agree.
public enum StoreDocument {
    public static let format = "cloner-store"
    public static let version: Int64 = 1
    /// The blob section's name in summaries.
    public static let blobSection = "_cloner_blobs"
}
