/// Reads a `*.tests.yaml` file against the compiled bundle: fixtures exist, `given` deep-merges
/// over `from` and types against the fact schema (errors positioned at the offending value),
/// and every id a test names (offers, rules, vetoes, conditions) exists in the bundle.
struct RuleTestSuiteReader {
    static let fileKeys = ["rules", "now", "fixtures", "tests"]
    static let testKeys = ["name", "now", "given", "limits", "expect"]
    static let expectKeys = [
        "section", "offer", "message", "alternateProduct", "rule", "blockedBy", "heldOut", "bucket", "shadowMatch", "refundPreference",
        "consumptionPercentage", "deliveryStatus", "sampleContentProvided", "conditions",
    ]

    /// What the tests may name.
    struct Names {
        var rulesFiles: [String]
        var offers: [String]
        var messages: [String] = []
        var products: [String] = []
        var rules: [String]
        var vetoes: [String]
        var conditions: Set<String>
    }

    let log: DiagnosticLog
    let schema: FactSchema
    let names: Names
    private var reader: NodeReader { NodeReader(log: log) }

    func read(_ root: YAMLNode) -> RuleTestSuite? {
        guard let top = reader.mapping(root, "a tests file", keys: Self.fileKeys, required: ["tests"]) else { return nil }
        var rulesFile: String?
        if let node = top["rules"], let name = reader.text(node, "rules") {
            rulesFile = name
            if !names.rulesFiles.contains(name) {
                log.error(
                    "no rules file '\(name)' in this bundle", at: node,
                    suggestion: DidYouMean.suggestion(for: name, among: names.rulesFiles))
            }
        }
        let fileNow = top["now"].flatMap { reader.timestamp($0, "now") }
        var fixtures: [String: YAMLNode] = [:]
        if let node = top["fixtures"], let entries = reader.namedEntries(node, "fixtures") {
            for entry in entries {
                if entry.value.pairs == nil { log.error("fixture \(entry.name) must be a mapping of facts", at: entry.value) }
                fixtures[entry.name] = entry.value
            }
        }
        let items = top["tests"].flatMap { reader.list($0, "tests") } ?? []
        let cases = items.compactMap { testCase($0, fixtures: fixtures, fileNow: fileNow) }
        return RuleTestSuite(file: root.location.file, rulesFile: rulesFile, cases: cases)
    }

    private func testCase(_ node: YAMLNode, fixtures: [String: YAMLNode], fileNow: Int64?) -> RuleTestCase? {
        guard let map = reader.mapping(node, "a test", keys: Self.testKeys, required: ["name", "given", "expect"]),
            let nameNode = map["name"], let name = reader.text(nameNode, "a test name"),
            let givenNode = map["given"], let expectNode = map["expect"]
        else { return nil }
        let now = map["now"].flatMap { reader.timestamp($0, "now") } ?? fileNow
        let limits = map["limits"].flatMap(limits) ?? StaticLimits()
        guard let facts = facts(givenNode, fixtures: fixtures), let expectation = expectation(expectNode) else { return nil }
        return RuleTestCase(
            name: name, location: nameNode.location, now: now, facts: facts, limits: limits, expectation: expectation)
    }

    private func facts(_ given: YAMLNode, fixtures: [String: YAMLNode]) -> Facts? {
        guard let pairs = given.pairs else {
            log.error("given must be a mapping of facts, found \(given.kindDescription)", at: given)
            return nil
        }
        var data = FactData.object([:])
        var sources: [YAMLNode] = []
        if let fromNode = given["from"] {
            let fromNames = fromNode.items.map { $0.compactMap(\.text) } ?? fromNode.text.map { [$0] } ?? []
            for fixtureName in fromNames {
                guard let fixture = fixtures[fixtureName] else {
                    log.error(
                        "unknown fixture '\(fixtureName)'", at: fromNode,
                        suggestion: DidYouMean.suggestion(for: fixtureName, among: fixtures.keys.sorted()))
                    return nil
                }
                data = data.deepMerged(with: fixture.factData)
                sources.insert(fixture, at: 0)
            }
        }
        let own = YAMLNode(.mapping(pairs.filter { $0.key.text != "from" }), at: given.location)
        data = data.deepMerged(with: own.factData)
        sources.insert(given, at: 0)
        do {
            return try Facts(data, schema: schema)
        } catch {
            let located = sources.lazy.map { $0.node(atFactPath: error.path) }.first { $0.complete }
            let target = located?.node ?? given
            let suggestion = error.suggestion.flatMap { $0.hasPrefix("did you mean ") ? String($0.dropFirst(13).dropLast()) : nil }
            log.error(
                (error.path.isEmpty ? "" : "\(error.path): ") + error.message, at: target, suggestion: suggestion,
                help: suggestion == nil ? error.suggestion : nil)
            return nil
        }
    }

    private func limits(_ node: YAMLNode) -> StaticLimits? {
        guard let map = reader.mapping(node, "limits", keys: ["perCustomer", "perOffer"]) else { return nil }
        let perCustomer = map["perCustomer"].flatMap { reader.int($0, "limits.perCustomer", in: 0...Int(Int32.max)) } ?? 0
        var perOffer: [String: Int] = [:]
        if let offers = map["perOffer"], let entries = reader.namedEntries(offers, "limits.perOffer") {
            for entry in entries {
                checkName(entry.name, among: names.offers, what: "offer", at: entry.key)
                perOffer[entry.name] = reader.int(entry.value, "limits.perOffer.\(entry.name)", in: 0...Int(Int32.max))
            }
        }
        return StaticLimits(perCustomer: perCustomer, perOffer: perOffer)
    }

    private func expectation(_ node: YAMLNode) -> RuleTestExpectation? {
        guard let map = reader.mapping(node, "expect", keys: Self.expectKeys) else { return nil }
        var expect = RuleTestExpectation()
        func name(_ key: String, among candidates: [String], what: String) -> RuleTestExpectation.Name? {
            guard let node = map[key], let text = reader.text(node, key) else { return nil }
            if text != "none" { checkName(text, among: candidates, what: what, at: node) }
            return RuleTestExpectation.Name(text)
        }
        expect.section = name("section", among: ["offers", "refunds", "retention"], what: "section")
        expect.offer = name("offer", among: names.offers, what: "offer")
        expect.message = name("message", among: names.messages, what: "message")
        expect.alternateProduct = name("alternateProduct", among: names.products, what: "product")
        expect.rule = name("rule", among: names.rules, what: "rule")
        expect.blockedBy = name("blockedBy", among: names.vetoes, what: "veto")
        expect.refundPreference = name("refundPreference", among: RuleEnum.refundPreference.caseNames, what: "refundPreference")
        expect.deliveryStatus = name("deliveryStatus", among: RuleEnum.deliveryStatus.caseNames, what: "deliveryStatus")
        expect.heldOut = map["heldOut"].flatMap { reader.bool($0, "heldOut") }
        expect.sampleContentProvided = map["sampleContentProvided"].flatMap { reader.bool($0, "sampleContentProvided") }
        expect.bucket = map["bucket"].flatMap { reader.int($0, "bucket", in: 0...9_999) }
        expect.consumptionPercentage = map["consumptionPercentage"].flatMap { reader.int($0, "consumptionPercentage", in: 0...100) }
            .map(Int64.init)
        if let node = map["shadowMatch"] {
            var ids: [(String, YAMLNode)] = []
            if node.items != nil {
                ids = reader.texts(node, "shadowMatch") ?? []
            } else if let id = reader.text(node, "shadowMatch") {
                ids = [(id, node)]
            }
            for (id, idNode) in ids where id != "none" { checkName(id, among: names.rules, what: "rule", at: idNode) }
            expect.shadowMatches = ids.map(\.0).filter { $0 != "none" }
        }
        if let node = map["conditions"], let entries = reader.namedEntries(node, "conditions") {
            for entry in entries {
                if !names.conditions.contains(entry.name) {
                    log.error(
                        "no condition '\(entry.name)' in the rules", at: entry.key,
                        suggestion: DidYouMean.suggestion(for: entry.name, among: names.conditions.sorted()),
                        help: "write the condition exactly as in the rule file")
                }
                guard let value = reader.choice(entry.value, "condition value", among: ["true", "false", "error"]) else { continue }
                expect.conditions.append(.init(source: entry.name, expected: value, location: entry.key.location))
            }
        }
        return expect
    }

    private func checkName(_ name: String, among candidates: [String], what: String, at node: YAMLNode) {
        guard !candidates.contains(name) else { return }
        log.error(
            "unknown \(what) '\(name)'", at: node, suggestion: DidYouMean.suggestion(for: name, among: candidates))
    }
}
