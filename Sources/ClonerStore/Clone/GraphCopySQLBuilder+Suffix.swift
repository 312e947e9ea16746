import ClonerModel

/// `rebuild: suffix` (docs/architecture.md#unique-values-on-copy), written once for both stores:
/// the value each copied row gets is decided inside its entity's INSERT … SELECT, so the
/// statements stay one per entity however many objects or copies share a value. The SELECT is
/// built in steps (materialized, each computed once): the rows (`q`), the entity's usual row with,
/// per ruled attribute, the value's base (`b<i>`), whether the rule gives the value (`w<i>`: not
/// the root's `set`, an exclusion at the root or a parent followed) and the row's number among
/// this statement's rows of that base (`r<i>`); per distinct base, the numbers its copies hold,
/// read by range scans of the attribute's unique index; then each row's value, copy number `k` —
/// the `r`-th number no existing value of the base holds.
///
/// The `r`-th free number is `r` plus the count of taken numbers `t` with fewer than `r` free
/// numbers below them (`t` minus its rank among the taken), so gaps are filled lowest first with
/// one window over each base's taken numbers, and many copies of one base read them once.
extension GraphCopySQLBuilder {
    /// The attributes of `entity` the copy gives a suffixed value, with their suffixes: ruled
    /// `rebuild: suffix` (on their own or where no parent is followed) and not excluded.
    func suffixedAttributes(_ entity: EntityDescription) -> [(attribute: AttributeDescription, suffix: CopySuffix)] {
        entity.attributes.compactMap { attribute in
            guard !plan.isExcludedEverywhere(entity.name, attribute.name) else { return nil }
            switch plan.rule(for: entity.name, attribute.name) {
            case .suffixed(let suffix), .followParent(_, .suffixed(let suffix)): return (attribute, suffix)
            default: return nil
            }
        }
    }

    /// `SELECT values source WHERE condition` in the insert's order, wrapped to give the
    /// suffixed attributes their values where `entity` has any. `values` are the columns in the
    /// INSERT's order, the new `_id` first.
    func selectingRows(_ entity: EntityDescription, values: [String], source: String, condition: String) -> String {
        let suffixed = suffixedAttributes(entity)
        guard !suffixed.isEmpty else { return "SELECT \(values.joined(separator: ", ")) \(source) WHERE \(condition) \(insertOrder)" }
        var inner = values.enumerated().map { "\($0.element) AS c\($0.offset)" }
        var outer = values.indices.map { "q.c\($0)" }
        var steps: [String] = []
        for (index, (attribute, suffix)) in suffixed.enumerated() {
            let base = suffixBase(of: "o.\(quoted(attribute.name))", suffix)
            let applies = suffixApplies(entity, attribute)
            inner += [
                "\(base) AS b\(index)", "\(applies) AS w\(index)",
                "row_number() OVER (PARTITION BY \(applies), \(base) ORDER BY m.cp, m.old) AS r\(index)",
            ]
            steps += freeNumberSteps(table: quoted(entity.name), attribute, suffix, index: index)
            let column = entity.attributes.firstIndex { $0.name == attribute.name }! + 2
            let number = "SELECT q.r\(index) + count(*) AS k FROM _sfx_g\(index) g WHERE g.b = q.b\(index) AND g.g < q.r\(index)"
            let value = "(SELECT \(suffixText(suffix, base: "q.b\(index)", number: "z.k")) FROM (\(number)) z)"
            outer[column] = "CASE WHEN q.w\(index) THEN \(typed(value, attribute.type)) ELSE q.c\(column) END"
        }
        let rows = "_sfx_q AS MATERIALIZED (SELECT \(inner.joined(separator: ", ")) \(source) WHERE \(condition))"
        // Named as the inner columns, so a dry run's preview reads them by name.
        let named = outer.enumerated().map { "\($0.element) AS c\($0.offset)" }
        return "WITH \(([rows] + steps).joined(separator: ", ")) SELECT \(named.joined(separator: ", ")) FROM _sfx_q q ORDER BY q.c0"
    }

    /// `Entity.attribute` of every suffixed attribute the copy may write: where two clones could
    /// read the same free number at once (PostgreSQL's concurrent writers), each is serialized.
    var suffixedAttributeNames: [String] {
        scope.entities.flatMap { entity in suffixedAttributes(entity).map { "\(entity.name).\($0.attribute.name)" } }
    }

    /// Whether any entity the copy may write has a suffixed attribute.
    var hasSuffixedAttributes: Bool { scope.entities.contains { !suffixedAttributes($0).isEmpty } }

    /// A dry run's queries of the values the rule would give, per `Entity.attribute`, for the
    /// entities with objects (`counts`).
    func suffixPreviewQueries(counts: [Int: Int]) -> [(attribute: String, query: String)] {
        scope.entities.filter { (counts[tag($0.name)] ?? 0) > 0 }.flatMap { entity in
            suffixPreviews(entity).map { ("\(entity.name).\($0.attribute)", $0.query) }
        }
    }

    /// One query per suffixed attribute of `entity` answering, for a dry run, the values its
    /// copies would hold (new `_id`, value; a null left out), in `_id` order.
    func suffixPreviews(_ entity: EntityDescription) -> [(attribute: String, query: String)] {
        let selects = rowSelects(entity).selects
        return suffixedAttributes(entity).map { attribute, _ in
            let column = entity.attributes.firstIndex { $0.name == attribute.name }! + 2
            let rows = selects.map { "SELECT v.c0, v.c\(column) FROM (\($0)) v WHERE v.c\(column) IS NOT NULL" }
            return (attribute.name, rows.joined(separator: " UNION ALL ") + " ORDER BY 1")
        }
    }

    /// True for a row whose value the rule gives: not one the root's `set` gives, nor a root's
    /// excluded value, nor a value followed from a parent.
    func suffixApplies(_ entity: EntityDescription, _ attribute: AttributeDescription) -> String {
        var conditions: [String] = []
        if case .followParent(let followed, _) = plan.rule(for: entity.name, attribute.name) {
            conditions.append("(\(noFollowedParent(followed)))")
        }
        if excludedAtRoot(entity.name, attribute.name) { conditions.append("m.pold IS NOT NULL") }
        if let set = attributeSetCondition(attribute, of: entity.name) { conditions.append("NOT (\(set))") }
        return conditions.isEmpty ? Dialect.trueLiteral : conditions.joined(separator: " AND ")
    }

    /// The value without a trailing suffix or numbered suffix (a copy of a copy numbers from the
    /// value it was made from); the value itself when it ends in neither, or is nothing else.
    func suffixBase(of value: String, _ suffix: CopySuffix) -> String {
        let suffixLength = suffix.suffix.unicodeScalars.count
        let numbered = NumberedSuffixSQL(value: value, suffix: suffix, text: Self.text)
        return """
            CASE WHEN length(\(value)) > \(suffixLength) AND substr(\(value), length(\(value)) - \(suffixLength - 1)) = \(Self.text(suffix.suffix)) \
            THEN substr(\(value), 1, length(\(value)) - \(suffixLength)) \
            WHEN \(numbered.matches) THEN \(numbered.base) ELSE \(value) END
            """
    }

    /// The steps that find, once per base of the statement's rows, the numbers its copies hold
    /// (`_sfx_t<i>`) and, per taken number, how many numbers below it are free (`_sfx_g<i>`): the
    /// row ranked `r` among its base's rows takes `r` plus the count of those with fewer than `r`.
    func freeNumberSteps(table: String, _ attribute: AttributeDescription, _ suffix: CopySuffix, index: Int) -> [String] {
        let column = "x.\(quoted(attribute.name))"
        let numbered = NumberedSuffixSQL(value: column, suffix: suffix, text: Self.text)
        let first = shortened("s.b", suffix, by: "\(suffix.suffix.unicodeScalars.count)")
        let later = shortened("s.b", suffix, by: "\(numbered.fixedLength) + length(\(numbered.digits))")
        let taken = """
            CASE WHEN \(column) = \(first) || \(Self.text(suffix.suffix)) THEN 1 \
            WHEN \(numbered.matches) THEN CASE WHEN \(numbered.base) = \(later) AND CAST(\(numbered.digits) AS INTEGER) > 1 \
            THEN CAST(\(numbered.digits) AS INTEGER) END END
            """
        let bases = "SELECT DISTINCT q.b\(index) AS b FROM _sfx_q q WHERE q.w\(index)"
        return [
            "_sfx_t\(index) AS MATERIALIZED (SELECT DISTINCT s.b, \(taken) AS t FROM (\(bases)) s JOIN \(table) x ON \(copyCandidates(column, suffix, base: "s.b")))",
            "_sfx_g\(index) AS MATERIALIZED (SELECT t.b, t.t - row_number() OVER (PARTITION BY t.b ORDER BY t.t) AS g FROM _sfx_t\(index) t WHERE t.t IS NOT NULL)",
        ]
    }

    /// The values of `column` that may be a copy of `base`, each form a range of the attribute's
    /// unique index (text is byte-ordered on both stores): the first copy's value, and the
    /// numbered ones — the base as cut for a number of each length, the prefix, then a digit
    /// (`:` follows `9`).
    func copyCandidates(_ column: String, _ suffix: CopySuffix, base: String) -> String {
        var forms = ["\(column) = \(shortened(base, suffix, by: "\(suffix.suffix.unicodeScalars.count)")) || \(Self.text(suffix.suffix))"]
        let fixedLength = suffix.numberPrefix.unicodeScalars.count + suffix.numberSuffix.unicodeScalars.count
        for digits in suffix.maxLength == nil ? 1...1 : 1...CopySuffix.maximumDigits {
            let start = "\(shortened(base, suffix, by: "\(fixedLength + digits)")) || \(Self.text(suffix.numberPrefix))"
            forms.append("(\(column) >= \(start) AND \(column) < \(start) || ':')")
        }
        return "(" + forms.joined(separator: " OR ") + ")"
    }

    /// The text copy number `number` of `base` gets (1: the suffix; later: the numbered one),
    /// its base shortened to the maximum length.
    func suffixText(_ suffix: CopySuffix, base: String, number: String) -> String {
        let digits = "CAST(\(number) AS TEXT)"
        let numberedLength = "\(suffix.numberPrefix.unicodeScalars.count + suffix.numberSuffix.unicodeScalars.count) + length(\(digits))"
        return """
            CASE WHEN \(number) = 1 THEN \(shortened(base, suffix, by: "\(suffix.suffix.unicodeScalars.count)")) || \(Self.text(suffix.suffix)) \
            ELSE \(shortened(base, suffix, by: numberedLength)) || \(Self.text(suffix.numberPrefix)) || \(digits) || \(Self.text(suffix.numberSuffix)) END
            """
    }

    /// `base` cut to leave room for an ending of `length` characters (an SQL expression) within
    /// the maximum length; `base` itself without one.
    func shortened(_ base: String, _ suffix: CopySuffix, by length: String) -> String {
        guard let maxLength = suffix.maxLength else { return base }
        return "CASE WHEN \(maxLength) - (\(length)) > 0 THEN substr(\(base), 1, \(maxLength) - (\(length))) ELSE '' END"
    }

    /// The condition that map row `m` has no parent whose clone's `followed` value it takes.
    func noFollowedParent(_ followed: String) -> String {
        let followable = model.entities.filter { $0.attribute(named: followed) != nil }.map { String(tag($0.name)) }
        return followable.isEmpty ? Dialect.trueLiteral : "m.pold IS NULL OR m.pent NOT IN (\(followable.joined(separator: ", ")))"
    }

    /// `text` as a string literal.
    static func text(_ text: String) -> String { Dialect.literal(.string(text)) }
}
