import ClonerModel

/// A create or PATCH body read against the model, with all the model alone can find wrong in it
/// and every link it makes to an existing object. A 422 names every problem of a body at once:
/// its value problems and its links to missing objects together (`RecordLink.missing`), so a
/// client fixes everything in one round.
struct RecordBody: Sendable {
    /// What the body asks for, without the values that are wrong (valid when `problems` is empty).
    var input: RecordInput
    /// Wrong types, unknown fields, missing required values …, sorted by path.
    var problems: [FieldError]
    /// Every existing `_id` the body links to, in a valid place or not, with its path.
    var links: [RecordLink]
}
