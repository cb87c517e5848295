import AppStoreServer

extension Decision {
    /// Why a tree is not a decision as this reader takes it (the caller then decodes the JSON
    /// with Foundation's decoder, which decides and names the error).
    struct TreeMismatch: Error {}

    /// A recorded decision from its JSON read as a ``FactData`` tree: what its `Decodable`
    /// conformance makes of the same JSON, apart from the trace (left empty). Much faster than
    /// `JSONDecoder` for the many small members of a decision. Throws ``TreeMismatch`` for
    /// anything but the shape the encoder writes.
    init(tree: FactData) throws(TreeMismatch) {
        let members = try Members(tree)
        self.init(bundle: try members.string("bundle"))
        now = try members.optional("now") { value throws(TreeMismatch) in
            DecisionInstant(millis: try Members.millis(value, DecisionInstant.self))
        }
        section = try members.optional("section") { value throws(TreeMismatch) in
            guard let section = Section(rawValue: try Members.string(value)) else { throw TreeMismatch() }
            return section
        }
        offer = try members.optional("offer", Self.offerChoice)
        refund = try members.optional("refund", Self.refundResponse)
        rule = try members.optional("rule", Self.reference)
        blockedBy = try members.optional("blockedBy", Self.reference)
        heldOut = try members.bool("heldOut")
        counterfactual = try members.optional("counterfactual", Self.offerChoice)
        counterfactualRule = try members.optional("counterfactualRule", Self.reference)
        buckets = try members.list("buckets") { value throws(TreeMismatch) in
            let bucket = try Members(value)
            return Bucket(purpose: try bucket.string("purpose"), salt: try bucket.string("salt"), unit: try bucket.string("unit"),
                          bucket: try bucket.int("bucket"), threshold: try bucket.int("threshold"))
        }
        shadowMatches = try members.list("shadowMatches") { value throws(TreeMismatch) in
            let shadow = try Members(value)
            return ShadowMatch(
                rule: try Self.reference(try shadow.value("rule")), offer: try shadow.optional("offer", Self.offerChoice),
                refund: try shadow.optional("refund", Self.refundResponse),
                corrections: try shadow.list("corrections", Self.consumptionCorrection))
        }
        limits = try members.list("limits") { value throws(TreeMismatch) in
            let limit = try Members(value)
            return LimitCheck(
                rule: try limit.string("rule"), kind: try limit.string("kind"), offer: try limit.optional("offer", Members.string),
                used: try limit.int("used"), max: try limit.int("max"),
                within: DecisionDuration(millis: try Members.millis(try limit.value("within"), DecisionDuration.self)),
                exceeded: try limit.bool("exceeded"))
        }
        errors = try members.list("errors") { value throws(TreeMismatch) in
            let error = try Members(value)
            return RuleError(rule: try Self.reference(try error.value("rule")), message: try error.string("message"))
        }
        corrections = try members.list("corrections") { value throws(TreeMismatch) in
            let correction = try Members(value)
            return Correction(rule: try Self.reference(try correction.value("rule")), try Self.consumptionCorrection(value))
        }
    }

    private static func reference(_ value: FactData) throws(TreeMismatch) -> RuleReference {
        let members = try Members(value)
        return RuleReference(id: try members.string("id"), file: try members.string("file"), line: try members.int("line"))
    }

    private static func offerChoice(_ value: FactData) throws(TreeMismatch) -> OfferChoice {
        let members = try Members(value)
        guard let type = OfferType(ruleName: try members.string("type")) else { throw TreeMismatch() }
        return OfferChoice(id: try members.string("id"), type: type,
                           expiresAfter: try members.optional("expiresAfter") { value throws(TreeMismatch) in
                               DecisionDuration(millis: try Members.millis(value, DecisionDuration.self))
                           })
    }

    private static func refundResponse(_ value: FactData) throws(TreeMismatch) -> RefundResponse {
        let members = try Members(value)
        return RefundResponse(
            refundPreference: try members.optional("refundPreference", Members.string),
            consumptionPercentage: try members.optional("consumptionPercentage") { value throws(TreeMismatch) in
                Int64(try Members.int(value))
            },
            deliveryStatus: try members.optional("deliveryStatus", Members.string),
            sampleContentProvided: try members.optional("sampleContentProvided", Members.bool))
    }

    private static func consumptionCorrection(_ value: FactData) throws(TreeMismatch) -> ConsumptionCorrection {
        let members = try Members(value)
        return ConsumptionCorrection(field: try members.string("field"), from: try members.optional("from", Members.string),
                                     to: try members.optional("to", Members.string), reason: try members.string("reason"))
    }

    /// The members of an object, read as `Decodable` reads a keyed container: a required member
    /// must be there and not null, an optional one may be missing or null.
    private struct Members {
        let entries: [String: FactData]

        init(_ value: FactData) throws(TreeMismatch) {
            guard case .object(let entries) = value else { throw TreeMismatch() }
            self.entries = entries
        }

        func value(_ key: String) throws(TreeMismatch) -> FactData {
            guard let value = entries[key], value != .null else { throw TreeMismatch() }
            return value
        }

        func optional<T>(_ key: String, _ read: (FactData) throws(TreeMismatch) -> T) throws(TreeMismatch) -> T? {
            guard let value = entries[key], value != .null else { return nil }
            return try read(value)
        }

        func list<T>(_ key: String, _ read: (FactData) throws(TreeMismatch) -> T) throws(TreeMismatch) -> [T] {
            guard case .list(let items) = try value(key) else { throw TreeMismatch() }
            var result: [T] = []
            result.reserveCapacity(items.count)
            for item in items { result.append(try read(item)) }
            return result
        }

        func string(_ key: String) throws(TreeMismatch) -> String { try Self.string(try value(key)) }
        func int(_ key: String) throws(TreeMismatch) -> Int { try Self.int(try value(key)) }
        func bool(_ key: String) throws(TreeMismatch) -> Bool { try Self.bool(try value(key)) }

        static func string(_ value: FactData) throws(TreeMismatch) -> String {
            guard case .string(let text) = value else { throw TreeMismatch() }
            return text
        }

        static func int(_ value: FactData) throws(TreeMismatch) -> Int {
            guard case .int(let number) = value, let int = Int(exactly: number) else { throw TreeMismatch() }
            return int
        }

        static func bool(_ value: FactData) throws(TreeMismatch) -> Bool {
            guard case .bool(let flag) = value else { throw TreeMismatch() }
            return flag
        }

        /// An instant or a duration in its text form.
        static func millis<T: DecisionTextMillis>(_ value: FactData, _ type: T.Type) throws(TreeMismatch) -> Int64 {
            guard let millis = T.parse(try string(value)) else { throw TreeMismatch() }
            return millis
        }
    }
}
