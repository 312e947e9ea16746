import ClonerModel

/// The export's destination lists on a backend without reads of its own: through the shared
/// `destinationIDs`.
extension StoreContext {
    public func readDestinations(of relationship: RelationshipDescription, for sources: [Int64], into lists: inout GraphDestinations) throws {
        lists.reset(sources: sources, width: 1)
        guard !sources.isEmpty else { return }
        let found = try destinationIDs(of: relationship, for: sources)
        for (position, source) in sources.enumerated() {
            lists.set(found[source] ?? [], of: position, list: 0)
        }
    }
}
