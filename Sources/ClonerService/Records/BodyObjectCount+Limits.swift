import ClonerHTTP

extension BodyObjectCount {
    /// Refuses a JSON body that asks for more work or memory than one request may, before it is
    /// parsed: more objects than `maximumObjects` (when the route creates objects), or more values
    /// than `maximumValues`. A 413 naming the member that holds the most, so the client knows
    /// what to split.
    static func check(_ body: [UInt8], maximumObjects: Int?, maximumValues: Int) throws(Problem) {
        let count = BodyObjectCount(body)
        if let maximumObjects, count.nested > maximumObjects {
            throw Problem(
                code: .payloadTooLarge,
                detail:
                    "the body holds \(count.nested) objects (\(count.widestCount) of them in \(count.widestMember)); one request creates at most \(maximumObjects) (maxObjectsPerRequest)",
                field: count.widestMember)
        }
        guard count.values > maximumValues else { return }
        throw Problem(
            code: .payloadTooLarge,
            detail:
                "the body holds \(count.values) JSON values (\(count.mostValues) of them in \(count.mostValuesMember)); one request holds at most \(maximumValues) (maxValuesPerRequest)",
            field: count.mostValuesMember)
    }
}
