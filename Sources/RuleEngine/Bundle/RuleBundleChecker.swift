/// Checks a bundle's files and compiles them: YAML syntax, pitfalls,
/// structure, expressions, catalog fit, Apple's consumption rules, lints, and the test files.
/// The same checks run on load, on reload and in `verdict rules check`.
public enum RuleBundleChecker {
    /// The outcome of a check.
    public struct Result: Sendable {
        /// The compiled bundle, nil when any error was found.
        public let bundle: RuleBundle?
        /// Errors and warnings, sorted by file and position.
        public let diagnostics: [RuleDiagnostic]
    }

    /// Checks `files` as one bundle read from `directory`, and the image files its
    /// `messages.yaml` declares there (``RetentionImageFiles``).
    public static func check(_ files: [BundleSourceFile], directory: String) -> Result {
        let result = check(files)
        guard let bundle = result.bundle else { return result }
        let images = RetentionImageFiles.check(
            bundle.messages, directory: directory, messagesFile: files.first { $0.name == "messages.yaml" })
        return images.isEmpty ? result : Result(bundle: nil, diagnostics: images + result.diagnostics)
    }

    /// Checks `files` as one bundle (image files are not read: see ``check(_:directory:)``).
    public static func check(_ files: [BundleSourceFile]) -> Result {
        let log = DiagnosticLog(files: files)
        var rules: [RuleFileSyntax] = []
        var testRoots: [YAMLNode] = []
        var catalog = OfferCatalog.empty
        var catalogFound = false
        var messages = RetentionMessages.empty
        var messagesFound = false
        for file in files.sorted(by: { $0.name < $1.name }) {
            guard let root = parse(file, log: log) else { continue }
            ExplicitTagCheck.check(root, log: log)
            if file.name == "catalog.yaml" {
                catalog = OfferCatalog.read(root, log: log)
                catalogFound = true
            } else if file.name == "messages.yaml" {
                messages = RetentionMessages.read(root, log: log)
                messagesFound = true
            } else if file.name.hasSuffix(".rules.yaml") {
                rules.append(RuleFileReader(log: log).read(root))
            } else if file.name.hasSuffix(".tests.yaml") {
                testRoots.append(root)
            }
        }
        if !files.contains(where: { $0.name.hasSuffix(".rules.yaml") }) {
            log.report(.error, "the bundle has no *.rules.yaml file", at: BundleLocation(file: files.first?.path ?? ".", line: 1, column: 1))
        }
        let environment = BundleEnvironmentBuilder(log: log).build(rules)
        let support = SectionCompilerSupport(
            log: log, environment: environment.environment, catalog: catalog,
            analysis: ConditionAnalysis(constants: environment.environment.constants))
        let holdout = single(rules, \.holdout, "holdout", node: { $0.node }, log: log)
        let offersSyntax = single(rules, \.offers, "offers", node: { $0.node }, log: log)
        let refundsSyntax = single(rules, \.refunds, "refunds", node: { $0.node }, log: log)
        let retentionSyntax = single(rules, \.retention, "retention", node: { $0.node }, log: log)
        if let retentionSyntax, !messagesFound {
            log.error("a retention section needs messages.yaml beside it, declaring its messages", at: retentionSyntax.node)
        }
        if offersSyntax != nil, !catalogFound {
            log.error("an offers section needs catalog.yaml beside it, listing the offers", at: offersSyntax!.node)
        }
        if let holdout, offersSyntax == nil, retentionSyntax == nil {
            log.warning("holdout applies to the offers and retention sections, and this bundle has neither", at: holdout.node)
        }
        let offers = offersSyntax.map { OfferSectionCompiler(support: support).compile($0, holdout: holdout) }
        let retention = retentionSyntax.map {
            RetentionSectionCompiler(support: support, messages: messages).compile($0, holdout: support.holdout(holdout))
        }
        let refunds = refundsSyntax.map { RefundSectionCompiler(support: support).compile($0) }
        checkUniqueIds(rules, log: log)
        BundleLints(log: log).run(
            syntax: rules, environment: environment, offers: offers, refunds: refunds, catalog: catalog)
        let suites = readTests(
            testRoots, rules: rules, offers: offers, refunds: refunds, retention: retention, catalog: catalog,
            messages: messages, schema: environment.environment.schema, log: log)
        let diagnostics = log.diagnostics.sortedByPosition()
        guard !log.hasErrors else { return Result(bundle: nil, diagnostics: diagnostics) }
        let bundle = RuleBundle(
            files: files, schema: environment.environment.schema, catalog: catalog,
            constants: environment.environment.constants, declarations: BundleDeclarations(rules), offers: offers, refunds: refunds,
            retention: retention, messages: messages, holdout: support.holdout(holdout), testSuites: suites,
            warnings: diagnostics, probes: FactProbes(environment: environment.environment))
        return Result(bundle: bundle, diagnostics: diagnostics)
    }

    private static func parse(_ file: BundleSourceFile, log: DiagnosticLog) -> YAMLNode? {
        switch YAMLReader.read(file) {
        case .failure(let diagnostic):
            log.append(diagnostic)
            return nil
        case .success(nil):
            log.report(.error, "the file is empty", at: BundleLocation(file: file.path, line: 1, column: 1))
            return nil
        case .success(let root?):
            return root
        }
    }

    /// The one file's `section`; a second one is an error.
    private static func single<T>(
        _ files: [RuleFileSyntax], _ section: KeyPath<RuleFileSyntax, T?>, _ name: String, node: (T) -> YAMLNode,
        log: DiagnosticLog
    ) -> T? {
        let found = files.compactMap { $0[keyPath: section] }
        for extra in found.dropFirst() {
            log.error("a bundle has one '\(name)' section; this is a second one", at: node(extra))
        }
        return found.first
    }

    /// Rule and veto ids are bundle-wide (tests and decisions name them).
    private static func checkUniqueIds(_ files: [RuleFileSyntax], log: DiagnosticLog) {
        var seen: [String: YAMLNode] = [:]
        var nodes: [(String, YAMLNode)] = []
        for file in files {
            nodes += (file.offers?.never ?? []).map { ($0.id, $0.idNode) }
            nodes += (file.offers?.rules ?? []).map { ($0.header.id, $0.header.idNode) }
            nodes += (file.refunds?.never ?? []).map { ($0.id, $0.idNode) }
            nodes += (file.refunds?.rules ?? []).map { ($0.header.id, $0.header.idNode) }
            nodes += (file.retention?.never ?? []).map { ($0.id, $0.idNode) }
            nodes += (file.retention?.rules ?? []).map { ($0.header.id, $0.header.idNode) }
        }
        for (id, node) in nodes {
            if let meaning = ReservedRuleIds.meanings[id] {
                log.error("id '\(id)' is \(meaning); choose another id", at: node)
            }
            if let first = seen[id] {
                log.error("id '\(id)' is already used at line \(first.location.line)", at: node)
            } else {
                seen[id] = node
            }
        }
    }

    private static func readTests(
        _ roots: [YAMLNode], rules: [RuleFileSyntax], offers: CompiledOffersSection?, refunds: CompiledRefundsSection?,
        retention: CompiledRetentionSection?, catalog: OfferCatalog, messages: RetentionMessages, schema: FactSchema, log: DiagnosticLog
    ) -> [RuleTestSuite] {
        // Names as written, so a rule that failed to compile is not also an "unknown rule" of
        // every test naming it (its own error explains it); plus the compiled ones.
        var conditions: Set<String> = []
        var ruleIds: [String] = []
        var vetoIds: [String] = []
        for file in rules {
            for rule in file.offers?.rules ?? [] { ruleIds.append(rule.header.id); conditions.formUnion(rule.header.when.map(\.text)) }
            for rule in file.refunds?.rules ?? [] { ruleIds.append(rule.header.id); conditions.formUnion(rule.header.when.map(\.text)) }
            for rule in file.retention?.rules ?? [] { ruleIds.append(rule.header.id); conditions.formUnion(rule.header.when.map(\.text)) }
            for veto in (file.offers?.never ?? []) + (file.refunds?.never ?? []) + (file.retention?.never ?? []) {
                vetoIds.append(veto.id)
                conditions.insert(veto.condition.text)
            }
        }
        for rule in offers?.rules ?? [] { conditions.formUnion(rule.conditions.map(\.source)) }
        for rule in refunds?.rules ?? [] { conditions.formUnion(rule.conditions.map(\.source)) }
        conditions.formUnion((offers?.vetoes ?? []).map(\.condition.source))
        conditions.formUnion((refunds?.vetoes ?? []).map(\.condition.source))
        for rule in retention?.rules ?? [] { conditions.formUnion(rule.conditions.map(\.source)) }
        conditions.formUnion((retention?.vetoes ?? []).map(\.condition.source))
        ruleIds += (offers?.rules.map(\.reference.id) ?? []) + (refunds?.rules.map(\.reference.id) ?? [])
            + (retention?.rules.map(\.reference.id) ?? [])
        vetoIds += (offers?.vetoes.map(\.id) ?? []) + (refunds?.vetoes.map(\.id) ?? []) + (retention?.vetoes.map(\.id) ?? [])
        if offers != nil || retention != nil { vetoIds.append(AssignedMemberVeto.id) }
        var seen: Set<String> = []
        var names = RuleTestSuiteReader.Names(
            rulesFiles: rules.map { $0.file.split(separator: "/").last.map(String.init) ?? $0.file },
            offers: catalog.offers.map(\.id),
            rules: ruleIds.filter { seen.insert("rule:" + $0).inserted },
            vetoes: vetoIds.filter { seen.insert("veto:" + $0).inserted },
            conditions: conditions)
        names.messages = messages.messages.map(\.id)
        names.products = catalog.productGroups.keys.sorted()
        let reader = RuleTestSuiteReader(log: log, schema: schema, names: names)
        return roots.compactMap { reader.read($0) }
    }
}
