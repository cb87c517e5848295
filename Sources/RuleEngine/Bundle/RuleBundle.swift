/// A loaded, checked and compiled rule bundle: immutable, shared by reference, safe to use from
/// any number of decisions at once. Build one with `RuleBundle.load(directory:)` or
/// `RuleBundle.load(files:)` (both run `RuleBundleChecker`); decide with `decide(_:)`; run its
/// tests with `RuleTestRunner`.
public final class RuleBundle: Sendable {
    /// `sha256:<hex>` over the files sorted by name.
    public let hash: String
    /// The files the bundle was built from, sorted by name.
    public let files: [BundleSourceFile]
    /// The fact schema, with the declared customer attributes.
    public let schema: FactSchema
    /// `catalog.yaml` (empty when the bundle has none).
    public let catalog: OfferCatalog
    /// The folded constants by name.
    public let constants: [String: RuleConstant]
    /// The constants, segments and attributes as written, with their positions.
    public let declarations: BundleDeclarations
    /// The `offers:` section, if any file has one.
    public let offers: CompiledOffersSection?
    /// The `refunds:` section, if any file has one.
    public let refunds: CompiledRefundsSection?
    /// The `retention:` section, if any file has one.
    public let retention: CompiledRetentionSection?
    /// `messages.yaml` (empty when the bundle has none).
    public let messages: RetentionMessages
    /// The `holdout:`, shared by the offers and retention sections.
    public let holdout: CompiledHoldout?
    /// The `*.tests.yaml` suites, read and typed.
    public let testSuites: [RuleTestSuite]
    /// Warnings found while checking (errors refuse the bundle).
    public let warnings: [RuleDiagnostic]
    /// `subscription.eligibleWinBackOfferIds` and `purchase.productType`, compiled once.
    let probes: FactProbes

    init(
        files: [BundleSourceFile], schema: FactSchema, catalog: OfferCatalog, constants: [String: RuleConstant],
        declarations: BundleDeclarations, offers: CompiledOffersSection?, refunds: CompiledRefundsSection?,
        retention: CompiledRetentionSection? = nil, messages: RetentionMessages = .empty, holdout: CompiledHoldout? = nil,
        testSuites: [RuleTestSuite],
        warnings: [RuleDiagnostic], probes: FactProbes
    ) {
        self.files = files.sorted { $0.name < $1.name }
        self.hash = BundleHash.compute(files)
        self.schema = schema
        self.catalog = catalog
        self.constants = constants
        self.declarations = declarations
        self.offers = offers
        self.refunds = refunds
        self.retention = retention
        self.messages = messages
        self.holdout = holdout
        self.testSuites = testSuites
        self.warnings = warnings
        self.probes = probes
    }

    /// Every rule and veto of the bundle, in section and file order (for coverage and listings).
    public var ruleReferences: [RuleReference] {
        var references: [RuleReference] = []
        if let offers {
            references += offers.vetoes.map { RuleReference(id: $0.id, file: $0.location.file, line: $0.location.line) }
            references += offers.rules.map(\.reference)
        }
        if let refunds {
            references += refunds.vetoes.map { RuleReference(id: $0.id, file: $0.location.file, line: $0.location.line) }
            references += refunds.rules.map(\.reference)
        }
        if let retention {
            references += retention.vetoes.map { RuleReference(id: $0.id, file: $0.location.file, line: $0.location.line) }
            references += retention.rules.map(\.reference)
        }
        return references
    }

    /// Reads the bundle in `directory` (see `RuleBundleFiles.read(directory:)`) and checks it,
    /// with the image files `messages.yaml` declares (``RetentionImageFiles``). Throws the errors
    /// (with any warnings) when it does not check clean.
    public static func load(directory: String) throws(RuleBundleError) -> RuleBundle {
        let files: [BundleSourceFile]
        do {
            files = try RuleBundleFiles.read(directory: directory)
        } catch {
            throw RuleBundleError(diagnostics: [error.diagnostic])
        }
        let result = RuleBundleChecker.check(files, directory: directory)
        guard let bundle = result.bundle else { throw RuleBundleError(diagnostics: result.diagnostics) }
        return bundle
    }

    /// Checks `files` (names ending `.rules.yaml`, `.tests.yaml`, and `catalog.yaml`) as a bundle.
    public static func load(files: [BundleSourceFile]) throws(RuleBundleError) -> RuleBundle {
        let result = RuleBundleChecker.check(files)
        guard let bundle = result.bundle else { throw RuleBundleError(diagnostics: result.diagnostics) }
        return bundle
    }
}

/// A bundle that did not check clean: its diagnostics, errors first, in file order.
public struct RuleBundleError: Error, Sendable, CustomStringConvertible {
    /// Every diagnostic found (at least one error).
    public let diagnostics: [RuleDiagnostic]

    /// The errors only.
    public var errors: [RuleDiagnostic] { diagnostics.filter { $0.severity == .error } }

    /// Every diagnostic rendered, separated by blank lines.
    public var description: String { diagnostics.map { $0.render() }.joined(separator: "\n\n") }
}

/// Compiled accessors for the facts the engine itself reads (not through rules).
struct FactProbes: Sendable {
    /// `subscription.eligibleWinBackOfferIds` (list of strings).
    let eligibleWinBackOfferIds: CompiledExpression?
    /// `subscription.productId`.
    let subscriptionProductId: CompiledExpression?
    /// `purchase.productType`.
    let purchaseProductType: CompiledExpression?
    /// `event.userLocale`.
    let userLocale: CompiledExpression?
    /// `subscription.ownership` (for ``AssignedMemberVeto``).
    let subscriptionOwnership: CompiledExpression?

    init(environment: CompileEnvironment) {
        func probe(_ path: String) -> CompiledExpression? { try? ExpressionCompiler.compile(path, environment: environment) }
        eligibleWinBackOfferIds = probe("subscription.eligibleWinBackOfferIds")
        subscriptionProductId = probe("subscription.productId")
        purchaseProductType = probe("purchase.productType")
        subscriptionOwnership = probe(AssignedMemberVeto.ownershipPath)
        // Optional: read unguarded (an absent locale evaluates to an error, read as "none").
        var guarded = environment
        guarded.guardedFacts.insert("event.userLocale")
        userLocale = try? ExpressionCompiler.compile("event.userLocale", environment: guarded)
    }
}
