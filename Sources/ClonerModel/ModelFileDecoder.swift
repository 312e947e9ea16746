/// Reads the shape of the model file (docs/architecture.md#the-model-file) into a `ModelDraft`, and checks everything that
/// one attribute or relationship decides on its own: field types, unknown fields, attribute types,
/// defaults, delete rules and the clone rules in `userInfo` (docs/architecture.md#clone-semantics). Cross-entity checks are
/// `ModelValidator`'s. Every problem is recorded and decoding goes on, so one run reports them all.
struct ModelFileDecoder {
    static let modelFields = ["entities"]
    static let entityFields = ["name", "collection", "attributes", "relationships", "uniqueTogether", "renamingID", "parent", "abstract"]
    static let attributeFields = ["name", "type", "bits", "optional", "default", "unique", "originalName", "renamingID", "userInfo"]
    static let relationshipFields = [
        "name", "destination", "toMany", "ordered", "inverse", "deleteRule", "optional", "renamingID", "userInfo", "minCount", "maxCount",
    ]

    let keys: CloneRuleKeys
    private(set) var problems: [ModelProblem] = []

    init(keys: CloneRuleKeys) {
        self.keys = keys
    }

    /// Where a field sits, and which entity/property it belongs to, for the problems found there.
    private struct Location {
        var path: String
        var entity: String?
        var property: String?

        func field(_ name: String) -> Location { Location(path: "\(path).\(name)", entity: entity, property: property) }
        func element(_ index: Int) -> Location { Location(path: "\(path)[\(index)]", entity: entity, property: property) }
    }

    mutating func decode(_ root: JSONValue) -> ModelDraft {
        var draft = ModelDraft()
        let location = Location(path: "model")
        guard let fields = object(root, at: location) else { return draft }
        checkFields(fields, known: Self.modelFields, at: location)
        guard let entitiesValue = fields["entities"] else {
            report(at: location, "missing required field \"entities\"")
            return draft
        }
        guard case .array(let entities) = entitiesValue else {
            report(at: Location(path: "entities"), "expected an array of entities, found \(entitiesValue.briefDescription)")
            return draft
        }
        if entities.isEmpty {
            report(at: Location(path: "entities"), "the model has no entities")
        }
        for (index, value) in entities.enumerated() {
            if let entity = decodeEntity(value, at: Location(path: "entities[\(index)]")) {
                draft.entities.append(entity)
            }
        }
        return draft
    }

    private mutating func decodeEntity(_ value: JSONValue, at location: Location) -> ModelDraft.Entity? {
        guard let fields = object(value, at: location) else { return nil }
        var location = location
        var entity = ModelDraft.Entity(path: location.path)
        entity.name = string(fields, "name", at: location, required: true)
        location.entity = entity.name
        checkFields(fields, known: Self.entityFields, at: location)
        entity.collection = string(fields, "collection", at: location)
        entity.renamingID = string(fields, "renamingID", at: location, nullable: true)
        entity.parent = string(fields, "parent", at: location, nullable: true)
        entity.isAbstract = bool(fields, "abstract", default: false, at: location)
        for (index, element) in array(fields, "attributes", at: location).enumerated() {
            if let attribute = decodeAttribute(element, at: location.field("attributes").element(index)) {
                entity.attributes.append(attribute)
            }
        }
        for (index, element) in array(fields, "relationships", at: location).enumerated() {
            if let relationship = decodeRelationship(element, at: location.field("relationships").element(index)) {
                entity.relationships.append(relationship)
            }
        }
        entity.uniqueTogether = uniqueTogether(fields, at: location)
        return entity
    }

    /// `"uniqueTogether": [["firstName", "lastName"], ...]`: the shape only; whether the names are
    /// attributes of the entity is `ModelValidator`'s check.
    private mutating func uniqueTogether(_ fields: [String: JSONValue], at location: Location) -> [[String]] {
        let groupsLocation = location.field("uniqueTogether")
        var groups: [[String]] = []
        for (index, element) in array(fields, "uniqueTogether", at: location).enumerated() {
            let groupLocation = groupsLocation.element(index)
            guard case .array(let names) = element else {
                report(at: groupLocation, "uniqueTogether: expected an array of attribute names, found \(element.briefDescription)")
                continue
            }
            guard !names.isEmpty else {
                report(at: groupLocation, "uniqueTogether: a group must name at least one attribute")
                continue
            }
            let strings = names.compactMap(\.stringValue)
            guard strings.count == names.count else {
                report(at: groupLocation, "uniqueTogether: expected attribute names (strings), found \(element.briefDescription)")
                continue
            }
            groups.append(strings)
        }
        return groups
    }

    private mutating func decodeAttribute(_ value: JSONValue, at location: Location) -> ModelDraft.Attribute? {
        guard let fields = object(value, at: location) else { return nil }
        var location = location
        var attribute = ModelDraft.Attribute(path: location.path)
        attribute.name = string(fields, "name", at: location, required: true)
        location.property = attribute.name
        checkFields(fields, known: Self.attributeFields, at: location)

        if let typeName = string(fields, "type", at: location, required: true) {
            attribute.type = AttributeType(rawValue: typeName)
            if attribute.type == nil {
                let known = AttributeType.allCases.map(\.rawValue)
                report(
                    at: location.field("type"),
                    "unknown attribute type \"\(typeName)\"\(suggestion(for: typeName, among: known, synonyms: Self.typeSynonyms)); the types are \(known.joined(separator: ", "))"
                )
            }
        }
        attribute.integerWidth = integerWidth(fields, type: attribute.type, at: location)
        attribute.isOptional = bool(fields, "optional", default: false, at: location)
        attribute.isUnique = bool(fields, "unique", default: false, at: location)
        attribute.originalName = string(fields, "originalName", at: location, nullable: true)
        attribute.renamingID = string(fields, "renamingID", at: location, nullable: true)
        // `null` means "no default": a required attribute with a null default would still need a value.
        if let defaultJSON = fields["default"], defaultJSON != .null, let type = attribute.type {
            if let value = AttributeValue(json: defaultJSON, type: type) {
                if case .integer(let number) = value, let problem = attribute.integerWidth.problem(with: number) {
                    report(at: location.field("default"), "default \(problem)")
                } else {
                    attribute.defaultValue = value
                }
            } else {
                report(
                    at: location.field("default"),
                    "default \(defaultJSON.briefDescription) does not fit the \(type.rawValue) attribute; expected \(type.expectedJSONForm)")
            }
        }
        attribute.userInfo = userInfo(fields, at: location)
        attribute.cloneRule = attributeCloneRule(attribute, at: location.field("userInfo"))
        return attribute
    }

    private mutating func decodeRelationship(_ value: JSONValue, at location: Location) -> ModelDraft.Relationship? {
        guard let fields = object(value, at: location) else { return nil }
        var location = location
        var relationship = ModelDraft.Relationship(path: location.path)
        relationship.name = string(fields, "name", at: location, required: true)
        location.property = relationship.name
        checkFields(fields, known: Self.relationshipFields, at: location)

        relationship.destination = string(fields, "destination", at: location, required: true)
        relationship.isToMany = bool(fields, "toMany", default: false, at: location)
        relationship.isOrdered = bool(fields, "ordered", default: false, at: location)
        relationship.inverseName = string(fields, "inverse", at: location, nullable: true)
        relationship.isOptional = bool(fields, "optional", default: true, at: location)
        relationship.renamingID = string(fields, "renamingID", at: location, nullable: true)
        if let ruleName = string(fields, "deleteRule", at: location) {
            if let rule = DeleteRule(rawValue: ruleName) {
                relationship.deleteRule = rule
            } else {
                let known = DeleteRule.allCases.map(\.rawValue)
                report(
                    at: location.field("deleteRule"),
                    "unknown deleteRule \"\(ruleName)\"\(suggestion(for: ruleName, among: known)); the rules are \(known.joined(separator: ", "))")
            }
        }
        if relationship.isOrdered && !relationship.isToMany {
            report(at: location.field("ordered"), "ordered applies to to-many relationships only; this one is to-one")
        }
        decodeCounts(fields, into: &relationship, at: location)
        relationship.userInfo = userInfo(fields, at: location)
        relationship.cloneRule = relationshipCloneRule(relationship.userInfo, at: location.field("userInfo"))
        // docs/architecture.md#the-model-file: a required relationship can't carry a rule that would leave a clone without it.
        if relationship.cloneRule.isExcluded && !relationship.isOptional && !relationship.isToMany {
            report(
                at: location.field("userInfo").field(keys.exclude),
                "\(keys.exclude) leaves clones without this relationship, but it is required (optional: false); make it optional or drop the rule")
        }
        return relationship
    }

    /// `"bits": 16`, `32` or `64` (the default) on an integer attribute: Core Data's Integer 16/32/64.
    private mutating func integerWidth(_ fields: [String: JSONValue], type: AttributeType?, at location: Location) -> IntegerWidth {
        guard let value = fields["bits"], value != .null else { return .bits64 }
        let widths = IntegerWidth.allCases.map { String($0.rawValue) }.joined(separator: ", ")
        guard case .integer(let bits) = value, let width = IntegerWidth(rawValue: Int(bits)) else {
            report(at: location.field("bits"), "bits must be one of \(widths), found \(value.briefDescription)")
            return .bits64
        }
        if let type, type != .integer {
            report(at: location.field("bits"), "bits applies to integer attributes only; this one is \(type.rawValue)")
        }
        return width
    }

    // MARK: Clone rules (docs/architecture.md#clone-semantics)

    private mutating func attributeCloneRule(_ attribute: ModelDraft.Attribute, at location: Location) -> AttributeCloneRule {
        let userInfo = attribute.userInfo
        var rule = AttributeCloneRule()
        let acceptsBlank = attribute.isOptional || attribute.defaultValue != nil

        if userInfo[keys.exclude] != nil {
            rule.isExcluded = true
            if !acceptsBlank {
                report(
                    at: location.field(keys.exclude),
                    "\(keys.exclude) leaves clones without a value, but the attribute is required and has no default; make it optional or give it a default")
            }
        }
        if let value = userInfo[keys.rebuild] {
            if let text = value.stringValue, let rebuild = AttributeCloneRule.Rebuild(rawValue: text) {
                rule.rebuild = rebuild
                let needed: AttributeType
                switch rebuild {
                case .uuid: needed = .uuid
                case .now: needed = .date
                case .suffix: needed = .string
                }
                if let type = attribute.type, type != needed {
                    report(
                        at: location.field(keys.rebuild),
                        "\(keys.rebuild): \(rebuild.rawValue) applies to \(needed.rawValue) attributes only; this one is \(type.rawValue)")
                }
            } else {
                report(at: location.field(keys.rebuild), "\(keys.rebuild) must be \"uuid\", \"now\" or \"suffix\", found \(value.briefDescription)")
            }
        }
        rule.copySuffix = copySuffix(userInfo, suffixRebuilt: rule.rebuild == .suffix, at: location)
        if let value = userInfo[keys.followParent] {
            if let name = value.stringValue, !name.isEmpty {
                rule.followParent = name
            } else {
                report(at: location.field(keys.followParent), "\(keys.followParent) must name an attribute of the parent, found \(value.briefDescription)")
            }
        }
        if let value = userInfo[keys.withoutParent] {
            if let text = value.stringValue, let withoutParent = AttributeCloneRule.WithoutParent(rawValue: text) {
                rule.withoutParent = withoutParent
                if withoutParent == .blank && !acceptsBlank {
                    report(
                        at: location.field(keys.withoutParent),
                        "\(keys.withoutParent): blank leaves a root clone without a value, but the attribute is required and has no default; make it optional or give it a default"
                    )
                }
            } else {
                report(at: location.field(keys.withoutParent), "\(keys.withoutParent) must be \"keep\" or \"blank\", found \(value.briefDescription)")
            }
            if userInfo[keys.followParent] == nil {
                report(
                    at: location.field(keys.withoutParent), "\(keys.withoutParent) only matters with \(keys.followParent), which the attribute does not have")
            }
        }
        if userInfo[keys.clone] != nil {
            report(at: location.field(keys.clone), "\(keys.clone) is a relationship rule; it has no effect on an attribute")
        }
        return rule
    }

    /// The suffixes of `rebuild: suffix` (docs/architecture.md#unique-values-on-copy): `suffix`,
    /// `numberedSuffix` (one `%d`, with text before it) and `maxLength` (a number or, as Core
    /// Data's User Info has it, a string of digits, with room for a base beside a suffix with a
    /// one-digit number), read only with that rule.
    private mutating func copySuffix(_ userInfo: [String: JSONValue], suffixRebuilt: Bool, at location: Location) -> CopySuffix {
        var copySuffix = CopySuffix()
        // Without the rule these are free user info keys, as other tools may read them.
        guard suffixRebuilt else { return copySuffix }
        if let value = userInfo[CopySuffix.suffixKey] {
            if let text = value.stringValue, !text.isEmpty {
                copySuffix.suffix = text
            } else {
                report(at: location.field(CopySuffix.suffixKey), "\(CopySuffix.suffixKey) must be non-empty text, found \(value.briefDescription)")
            }
        }
        if let value = userInfo[CopySuffix.numberedSuffixKey] {
            let parts = value.stringValue?.split(separator: CopySuffix.numberPlaceholder, omittingEmptySubsequences: false)
            if let parts, parts.count == 2, !parts[0].isEmpty {
                copySuffix.numberPrefix = String(parts[0])
                copySuffix.numberSuffix = String(parts[1])
            } else {
                report(
                    at: location.field(CopySuffix.numberedSuffixKey),
                    "\(CopySuffix.numberedSuffixKey) must hold %d once, with text before it (\" (copy %d)\", \"-copy-%d\"), found \(value.briefDescription)")
            }
        }
        if let value = userInfo[CopySuffix.maxLengthKey] {
            var length: Int64?
            switch value {
            case .integer(let number): length = number
            case .string(let text): length = Int64(text)
            default: length = nil
            }
            if let length, length > Int64(copySuffix.shortestRoom), length <= Int64(Int32.max) {
                copySuffix.maxLength = Int(length)
            } else {
                report(
                    at: location.field(CopySuffix.maxLengthKey),
                    "\(CopySuffix.maxLengthKey) must be a whole number of characters above \(copySuffix.shortestRoom) (the longest suffix with a one-digit number), found \(value.briefDescription)"
                )
            }
        }
        return copySuffix
    }

    private mutating func relationshipCloneRule(_ userInfo: [String: JSONValue], at location: Location) -> RelationshipCloneRule {
        var rule = RelationshipCloneRule()
        // Relationship rule 1 (docs/architecture.md#exclusions): `exclude` is allowed on any relationship.
        rule.isExcluded = userInfo[keys.exclude] != nil
        if let value = userInfo[keys.clone] {
            if let text = value.stringValue, let ownership = RelationshipCloneRule.Ownership(rawValue: text) {
                rule.ownershipOverride = ownership
            } else {
                report(at: location.field(keys.clone), "\(keys.clone) must be \"share\" or \"copy\", found \(value.briefDescription)")
            }
        }
        for attributeRule in [keys.rebuild, keys.followParent, keys.withoutParent] where userInfo[attributeRule] != nil {
            report(at: location.field(attributeRule), "\(attributeRule) is an attribute rule; it has no effect on a relationship")
        }
        return rule
    }

    // MARK: Field access

    private mutating func report(at location: Location, _ message: String) {
        problems.append(ModelProblem(entity: location.entity, property: location.property, at: location.path, message))
    }

    private mutating func object(_ value: JSONValue, at location: Location) -> [String: JSONValue]? {
        guard case .object(let fields) = value else {
            report(at: location, "expected an object, found \(value.briefDescription)")
            return nil
        }
        return fields
    }

    /// Unknown fields are reported because a typo (`"optinal": true`) would otherwise be ignored and
    /// silently give the default.
    private mutating func checkFields(_ fields: [String: JSONValue], known: [String], at location: Location) {
        for name in fields.keys.sorted() where !known.contains(name) {
            report(
                at: location.field(name),
                "unknown field \"\(name)\"\(suggestion(for: name, among: known)); the fields here are \(known.joined(separator: ", "))")
        }
    }

    private mutating func string(_ fields: [String: JSONValue], _ name: String, at location: Location, required: Bool = false, nullable: Bool = false)
        -> String?
    {
        switch fields[name] {
        case .string(let value)?:
            return value
        case nil:
            if required { report(at: location, "missing required field \"\(name)\"") }
            return nil
        case .null? where nullable:
            return nil
        case let value?:
            report(at: location.field(name), "expected a string, found \(value.briefDescription)")
            return nil
        }
    }

    /// `minCount`/`maxCount`, Core Data's bounds on a to-many: non-negative integers, the least
    /// no more than the most.
    private mutating func decodeCounts(_ fields: [String: JSONValue], into relationship: inout ModelDraft.Relationship, at location: Location) {
        var counts: [String: Int] = [:]
        for name in ["minCount", "maxCount"] {
            guard let value = fields[name] else { continue }
            guard case .integer(let number) = value, number >= 0, number <= Int64(Int32.max) else {
                report(at: location.field(name), "expected a count (an integer from 0), found \(value.briefDescription)")
                continue
            }
            guard relationship.isToMany else {
                report(at: location.field(name), "\(name) applies to to-many relationships only; this one is to-one")
                continue
            }
            counts[name] = Int(number)
        }
        if let least = counts["minCount"], let most = counts["maxCount"], least > most {
            report(at: location.field("minCount"), "minCount \(least) is more than maxCount \(most)")
            return
        }
        relationship.minCount = counts["minCount"]
        relationship.maxCount = counts["maxCount"]
    }

    private mutating func bool(_ fields: [String: JSONValue], _ name: String, default defaultValue: Bool, at location: Location) -> Bool {
        switch fields[name] {
        case .bool(let value)?: return value
        case nil: return defaultValue
        case let value?:
            report(at: location.field(name), "expected true or false, found \(value.briefDescription)")
            return defaultValue
        }
    }

    private mutating func array(_ fields: [String: JSONValue], _ name: String, at location: Location) -> [JSONValue] {
        switch fields[name] {
        case .array(let elements)?: return elements
        case nil: return []
        case let value?:
            report(at: location.field(name), "expected an array, found \(value.briefDescription)")
            return []
        }
    }

    private mutating func userInfo(_ fields: [String: JSONValue], at location: Location) -> [String: JSONValue] {
        switch fields["userInfo"] {
        case .object(let members)?: return members
        case nil: return [:]
        case let value?:
            report(at: location.field("userInfo"), "expected an object, found \(value.briefDescription)")
            return [:]
        }
    }

    /// Names other schema languages use for our types, so `"float"` gets a useful hint.
    static let typeSynonyms: [String: String] = [
        "int": "integer", "int64": "integer", "long": "integer", "float": "double", "real": "double", "number": "double",
        "bool": "boolean", "str": "string", "text": "string", "datetime": "date", "timestamp": "date",
        "blob": "binary", "data": "binary", "bytes": "binary", "object": "json", "any": "json",
    ]

    /// " (did you mean "optional"?)" when a known word is within two edits of the typo, or is
    /// abbreviated by it (`int` for `integer`).
    private func suggestion(for word: String, among known: [String], synonyms: [String: String] = [:]) -> String {
        let lowered = word.lowercased()
        if let match = synonyms[lowered] { return " (did you mean \"\(match)\"?)" }
        let best = known.map { ($0, Self.editDistance(lowered, $0.lowercased())) }.min { $0.1 < $1.1 }
        if let (match, distance) = best, distance <= 2 { return " (did you mean \"\(match)\"?)" }
        if lowered.count >= 3, let match = known.first(where: { $0.lowercased().hasPrefix(lowered) }) {
            return " (did you mean \"\(match)\"?)"
        }
        return ""
    }

    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
