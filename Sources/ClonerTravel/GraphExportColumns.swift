import ClonerModel
import ClonerStore

/// What an export's lines list, per entity and for the root, worked out once per export rather
/// than per object: properties by index, names encoded, each line's opening (`{"kind":"object",
/// "entity":…,"ref":`) written once.
struct GraphExportColumns {
    struct Attribute {
        var index: Int
        var key: [UInt8]
        var type: AttributeType
    }

    struct Relationship {
        var index: Int
        var key: [UInt8]
        var destination: Int
        var isToMany: Bool
    }

    /// Per entity, the attributes an object line lists: `[tag][0]` for any object, `[tag][1]`
    /// for the root (less those excluded at the root).
    let attributes: [[[Attribute]]]
    /// Per entity, the relationships an object line lists, indexed as `attributes`.
    let relationships: [[[Relationship]]]
    /// Per entity, its natural key's attributes (a key naming no attribute has index -1).
    let keys: [[Attribute]]
    let objectOpenings: [[UInt8]]
    let referenceOpenings: [[UInt8]]
    /// Per entity, a parent's opening (`{"entity":…,"ref":`).
    let parentOpenings: [[UInt8]]
    /// Per entity, a clone's source's opening (`{"entity":…,"id":`, docs/architecture.md#lineage).
    let clonedFromOpenings: [[UInt8]]
    /// Per entity, whether it has a binary attribute.
    let hasBinary: [Bool]
    let parentKey = GraphLineWriter.encodedKey("parent")
    let keyKey = GraphLineWriter.encodedKey("key")
    let attributesKey = GraphLineWriter.encodedKey("attributes")
    let relationshipsKey = GraphLineWriter.encodedKey("relationships")
    let clonedFromKey = GraphLineWriter.encodedKey("clonedFrom")
    let placesKey = GraphLineWriter.encodedKey("places")

    init(copy: GraphCopyPlan, schema: StoreSchema) {
        let model = schema.model
        attributes = model.entities.map { entity in
            [false, true].map { isRoot in
                entity.attributes.enumerated().filter { _, attribute in
                    !copy.isExcludedEverywhere(entity.name, attribute.name) && !(isRoot && copy.excludedAtRoot.contains(attribute.name))
                }.map { Attribute(index: $0.offset, key: GraphLineWriter.encodedKey($0.element.name), type: $0.element.type) }
            }
        }
        relationships = model.entities.map { entity in
            [false, true].map { isRoot in
                entity.relationships.enumerated().filter { _, relationship in
                    !copy.isExcludedEverywhere(entity.name, relationship.name) && !(isRoot && copy.excludedAtRoot.contains(relationship.name))
                }.map {
                    Relationship(
                        index: $0.offset, key: GraphLineWriter.encodedKey($0.element.name), destination: schema.entityTag($0.element.destination),
                        isToMany: $0.element.isToMany)
                }
            }
        }
        keys = model.entities.map { entity in
            GraphFormat.naturalKey(of: entity, in: model).map { name in
                // A key naming no attribute is written null, as a fetch has no value for it.
                Attribute(
                    index: entity.attributes.firstIndex { $0.name == name } ?? -1, key: GraphLineWriter.encodedKey(name),
                    type: entity.attribute(named: name)?.type ?? .string)
            }
        }
        objectOpenings = model.entities.map { Self.opening("object", $0.name) }
        referenceOpenings = model.entities.map { Self.opening("reference", $0.name) }
        parentOpenings = model.entities.map { entity in
            var parent = GraphLineWriter(capacity: 32)
            parent.beginObject()
            parent.key("entity")
            parent.string(entity.name)
            parent.key("ref")
            return parent.bytes
        }
        clonedFromOpenings = model.entities.map { entity in
            var source = GraphLineWriter(capacity: 32)
            source.beginObject()
            source.key("entity")
            source.string(entity.name)
            source.key("id")
            return source.bytes
        }
        hasBinary = model.entities.map { $0.attributes.contains(where: { $0.type == .binary }) }
    }

    private static func opening(_ kind: String, _ entity: String) -> [UInt8] {
        var opening = GraphLineWriter(capacity: 64)
        opening.beginObject()
        opening.key("kind")
        opening.string(kind)
        opening.key("entity")
        opening.string(entity)
        opening.key("ref")
        return opening.bytes
    }
}
