import ClonerModel

extension StoreContext {
    /// For each list of `values` (one value per attribute of `key`, in its order), the `_id` of
    /// the object of `entity` that holds them, if any: one query per few hundred lists, however
    /// many objects a graph document names by their natural key. Values are compared as stored
    /// (`=`), so a null never matches.
    public func idsByNaturalKey(entity: EntityDescription, key: [AttributeDescription], values: [[AttributeValue]]) throws -> [Int64?] {
        let backend = rowAccess.context
        var ids = [Int64?](repeating: nil, count: values.count)
        let batch = 500
        var start = 0
        while start < values.count {
            let end = min(start + batch, values.count)
            for (index, id) in try backend.findIDs(entity: entity, key: key, values: Array(values[start..<end])) {
                ids[start + index] = id
            }
            start = end
        }
        return ids
    }
}
