import ClonerModel
import ClonerStore
import ClonerTestSupport
import Foundation

enum StoreFixtures {
    /// A notes model covering every storage shape: ordered to-many with a to-one inverse, one-to-one,
    /// many-to-many, an inverse-less to-one, and each delete rule.
    static func notesModel(extraNoteAttributes: [AttributeDescription] = [], renameIndex: Bool = false) -> DataModel {
        DataModel(entities: [
            EntityDescription(
                name: "Note",
                attributes: [
                    AttributeDescription(name: "id", type: .uuid),
                    AttributeDescription(name: "name", type: .string, isOptional: true),
                    AttributeDescription(name: "createDate", type: .date),
                    renameIndex
                        ? AttributeDescription(name: "position", type: .integer, defaultValue: .integer(0), originalName: "index")
                        : AttributeDescription(name: "index", type: .integer, defaultValue: .integer(0)),
                    AttributeDescription(name: "data", type: .binary, isOptional: true),
                ] + extraNoteAttributes,
                relationships: [
                    RelationshipDescription(name: "items", destination: "Item", isToMany: true, isOrdered: true, inverseName: "note", deleteRule: .cascade),
                    RelationshipDescription(name: "noteDescription", destination: "NoteDescription", inverseName: "note", deleteRule: .cascade),
                ]),
            EntityDescription(
                name: "Item",
                attributes: [
                    AttributeDescription(name: "name", type: .string, isOptional: true),
                    AttributeDescription(name: "score", type: .double, isOptional: true),
                    AttributeDescription(name: "done", type: .boolean, defaultValue: .boolean(false)),
                    AttributeDescription(name: "extra", type: .json, isOptional: true),
                ],
                relationships: [
                    RelationshipDescription(name: "note", destination: "Note", inverseName: "items", deleteRule: .nullify),
                    RelationshipDescription(name: "tags", destination: "Tag", isToMany: true, inverseName: "items", deleteRule: .nullify),
                ]),
            EntityDescription(
                name: "Tag",
                attributes: [
                    AttributeDescription(name: "name", type: .string, isUnique: true)
                ],
                relationships: [
                    RelationshipDescription(name: "items", destination: "Item", isToMany: true, isOrdered: true, inverseName: "tags", deleteRule: .deny)
                ]),
            EntityDescription(
                name: "NoteDescription",
                attributes: [
                    AttributeDescription(name: "text", type: .string, isOptional: true)
                ],
                relationships: [
                    RelationshipDescription(name: "note", destination: "Note", inverseName: "noteDescription", deleteRule: .nullify)
                ]),
            EntityDescription(
                name: "Card",
                attributes: [
                    AttributeDescription(name: "title", type: .string, isOptional: true)
                ],
                relationships: [
                    RelationshipDescription(name: "next", destination: "Card", deleteRule: .noAction),
                    RelationshipDescription(name: "links", destination: "Card", isToMany: true, isOrdered: true),
                ]),
        ])
    }

    static func openStore(_ directory: TemporaryDirectory, model: DataModel = notesModel()) throws -> IncrementalStore {
        try IncrementalStore(path: directory.path("store.sqlite"), model: model)
    }

    /// The real store at `place`, on its backend.
    static func openStore(_ place: StorePlace, model: DataModel = notesModel()) throws -> IncrementalStore {
        try place.open(model: model)
    }

    static func note(_ name: String, index: Int64 = 0) -> ChangeSet.Insert {
        ChangeSet.Insert(
            entity: "Note",
            attributes: [
                "id": .uuid(UUID()), "name": .string(name), "createDate": .date(Date()), "index": .integer(index),
            ])
    }
}
