import RuleEngine
import Testing

/// The replay diff of what `catalog.yaml` and `messages.yaml` declare: catalog offers (shared by the
/// offers and retention sections) and the retention messages and images, each at its line there.
@Suite("Replay diff: catalog offers, retention messages and images")
struct BundleDiffFilesTests {
    typealias Support = BundleDiffTestSupport

    @Test("a catalog offer's changed expiry, and an offer added then removed, at their catalog lines")
    func catalogOffers() throws {
        let baseline = try Support.shipped()
        let expiry = try Support.shipped([("catalog.yaml", "    expiresAfter: 3d\n", "    expiresAfter: 5d\n")])
        #expect(Support.diff(baseline, expiry) == [
            try BundleDiffTests.expected(.changed, nil, "offer", "lumen-annual-40off", at: "id: lumen-annual-40off", in: expiry,
                                         file: "catalog.yaml", "expiresAfter 3d → 5d"),
        ])
        let added = try Support.shipped([("catalog.yaml", "    description: 50% off three months when coming back to monthly.\n", """
                description: 50% off three months when coming back to monthly.

              - id: lumen-winback-annual-30off
                type: WIN_BACK
                productIds: [com.lumen.pro.annual]
                subscriptionGroup: "21482345"

            """)])
        #expect(Support.diff(baseline, added) == [
            try BundleDiffTests.expected(.added, nil, "offer", "lumen-winback-annual-30off", at: "id: lumen-winback-annual-30off",
                                         in: added, file: "catalog.yaml", "WIN_BACK for [com.lumen.pro.annual]"),
        ])
        #expect(Support.diff(added, baseline) == [
            try BundleDiffTests.expected(.removed, nil, "offer", "lumen-winback-annual-30off", at: "id: lumen-winback-annual-30off",
                                         in: added, file: "catalog.yaml", "WIN_BACK for [com.lumen.pro.annual]"),
        ])
    }

    @Test("a message's changed header and an image's new file hash are retention changes at their lines in messages.yaml")
    func messagesAndImages() throws {
        let baseline = try Support.shipped()
        let hash = "dab00a7279748c52644f3eb3d8b19e7258a96fdcd81becd25c6b7019c4db9483"
        let newHash = String(repeating: "0", count: 64)
        let candidate = try Support.shipped([
            ("messages.yaml", "header: Before you go", "header: Wait a moment"),
            ("messages.yaml", hash, newHash),
        ])
        #expect(Support.diff(baseline, candidate) == [
            try BundleDiffTests.expected(.changed, .retention, "message", "what-you-lose", at: "- id: what-you-lose", in: candidate,
                                         file: "messages.yaml", "en-US header \"Before you go\" → \"Wait a moment\""),
            try BundleDiffTests.expected(.changed, .retention, "image", "icon-cloud", at: "id: icon-cloud", in: candidate,
                                         file: "messages.yaml", "sha256 \(hash) → \(newHash)"),
        ])
    }

    @Test("a locale added to a message lists its texts")
    func addedLocale() throws {
        let baseline = try Support.shipped()
        let candidate = try Support.shipped([("messages.yaml", """
                  en-US: {header: "Prefer to pay monthly?", body: "Switch to Lumen Pro monthly and keep everything you made."}
            """, """
                  en-US: {header: "Prefer to pay monthly?", body: "Switch to Lumen Pro monthly and keep everything you made."}
                  fr-FR: {header: "Payer au mois ?", body: "Passez à Lumen Pro mensuel."}
            """)])
        #expect(Support.diff(baseline, candidate) == [
            try BundleDiffTests.expected(.changed, .retention, "message", "switch-to-monthly", at: "id: switch-to-monthly",
                                         in: candidate, file: "messages.yaml",
                                         "+ fr-FR header \"Payer au mois ?\"; + fr-FR body \"Passez à Lumen Pro mensuel.\""),
        ])
    }
}
