extension ModelProblem {
    /// A problem located by its JSON path in the model file (`entities[2].attributes[0].type`), so an
    /// author can find it even when the entity or property has no usable name. A Core Data model
    /// replaces the path by its line in the XML (`CoreDataSourceMap.locate`).
    init(entity: String?, property: String?, at path: String, _ message: String) {
        self.init(entity: entity, property: property, message: "\(message) (at \(path))")
        jsonPath = path
    }
}
