import ClonerModel

/// How a copy's attribute gets its value (the attribute rules of docs/architecture.md#attribute-rules, resolved by the clone layer
/// from the model's clone rules; exclusion is the plan's `excludedEverywhere`/`excludedAtRoot`).
public indirect enum AttributeCopyRule: Sendable, Hashable {
    /// Byte for byte.
    case copy
    /// The attribute's default, else null.
    case blank
    /// A fresh random version 4 UUID per object.
    case newUUID
    /// The clone's single timestamp (`now`).
    case cloneTime
    /// The value with the suffix that makes it unique among the entity's values, numbered from
    /// the lowest number free (docs/architecture.md#unique-values-on-copy).
    case suffixed(CopySuffix)
    /// The value of `attribute` of the clone of this object's parent (the object through whose
    /// owned relationship it was reached). Without a parent — the root, or a parent whose entity has
    /// no such attribute — `otherwise` decides.
    case followParent(attribute: String, otherwise: AttributeCopyRule)
}
