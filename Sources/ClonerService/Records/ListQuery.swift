/// The query namespace of the list route (docs/architecture.md#routes): a few control words and
/// equality filters named after properties. A model may name a property like a control (a shop's
/// `order` relationship, a `limit` attribute), so the plain `?name=value` form cannot reach every
/// property. The explicit form `?where.name=value` always can: property names hold only letters,
/// digits and `_` (`ModelValidator.nameProblem`), so no property is named `where.…` and no control
/// ever will be. The plain form stays for every other name, so existing links and clients keep
/// working.
enum ListQuery {
    /// The parameters the list route reads as controls, never as filters.
    /// `count` came after the others: a property named `count` is filtered as `where.count`.
    static let controls: Set<String> = ["limit", "after", "cursor", "order", "count"]

    /// The prefix of the explicit filter form, `where.name`.
    static let filterPrefix = "where."

    /// How a filter on `property` is written: plainly when that name is free, explicitly when it
    /// is a control word.
    static func filterParameter(_ property: String) -> String {
        controls.contains(property) ? filterPrefix + property : property
    }

    /// The property a non-control parameter filters on: `where.order` → `order`, `name` → `name`.
    static func filteredProperty(_ parameter: String) -> String {
        parameter.hasPrefix(filterPrefix) ? String(parameter.dropFirst(filterPrefix.utf8.count)) : parameter
    }
}
