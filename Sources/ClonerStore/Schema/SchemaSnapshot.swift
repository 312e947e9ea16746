import ClonerModel
import Foundation

/// The storage-relevant part of a model, recorded in the store's metadata so the next start can
/// tell exactly what changed (a rename, a new column, a type change) without trusting the file on
/// disk to still describe the old layout. Clone rules are left out: they change no table.
struct SchemaSnapshot: Codable, Equatable, Sendable {
    struct Attribute: Codable, Equatable, Sendable {
        var name: String
        var type: AttributeType
        var optional: Bool
        var unique: Bool
        var hasDefault: Bool
    }

    struct Relationship: Codable, Equatable, Sendable {
        var name: String
        var destination: String
        var toMany: Bool
        var ordered: Bool
        var inverse: String?
        var optional: Bool
    }

    struct Entity: Codable, Equatable, Sendable {
        var name: String
        var attributes: [Attribute]
        var relationships: [Relationship]
        /// nil when the entity has none, so stores recorded before `uniqueTogether` existed (and
        /// entities without it) keep their snapshot bytes and fingerprint.
        var uniqueTogether: [[String]]?
        /// The root of its inheritance hierarchy, whose one `_id` space it shares; nil outside any,
        /// so the snapshots of stores without inheritance keep their bytes.
        var hierarchy: String?
    }

    var entities: [Entity]

    init(model: DataModel) {
        entities = model.entities.map { entity in
            Entity(
                name: entity.name,
                attributes: entity.attributes.map {
                    Attribute(name: $0.name, type: $0.type, optional: $0.isOptional, unique: $0.isUnique, hasDefault: $0.defaultValue != nil)
                },
                relationships: entity.relationships.map {
                    Relationship(
                        name: $0.name, destination: $0.destination, toMany: $0.isToMany, ordered: $0.isOrdered,
                        inverse: $0.inverseName, optional: $0.isOptional)
                },
                uniqueTogether: entity.uniqueTogether.isEmpty ? nil : entity.uniqueTogether, hierarchy: entity.hierarchy)
        }
    }

    func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Encoding plain value types cannot fail.
        return try! encoder.encode(self)
    }

    /// 64-bit FNV-1a of the canonical JSON: cheap, stable across runs and platforms, and only used
    /// to notice that a migration check is needed — not for security.
    var fingerprint: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in encoded() {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return String(hash, radix: 16)
    }

    func entity(named name: String) -> Entity? { entities.first { $0.name == name } }
}
