import Foundation

/// The normalised model: the model-file format with every default written out, which is what
/// `GET /model` answers and what the fingerprint is taken over. Loading it again gives an equal model.
extension DataModel: Encodable {
    public var normalizedJSON: JSONValue {
        .object(["entities": .array(abstractEntities.map(\.normalizedJSON) + entities.map(\.normalizedJSON))])
    }

    /// Indented, sorted-key JSON for people and `GET /model`. Build it once per loaded model; the
    /// model does not change while the service runs.
    public var normalizedText: String { normalizedJSON.prettyText }

    /// A 64-bit FNV-1a hash of the canonical normalised JSON, as 16 hex digits. It changes with any
    /// change to the model, including clone rules and defaults, and not with formatting, member order
    /// or spelled-out defaults; the store records it to notice that the model changed.
    public var fingerprint: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in normalizedJSON.canonicalText.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    public func encode(to encoder: any Encoder) throws {
        try normalizedJSON.encode(to: encoder)
    }
}
