import Foundation

/// The console's links to its own pages, for the app a page shows. A session that sees several
/// apps names the app in every link (`?app=<bundle id>`, after the page's own parameters); a
/// session of one app names none, so its links are the console's URLs as they always were.
///
/// Links are built from stored values: every value is percent-encoded (only ASCII letters, digits
/// and `-._~` stay as they are), so an id with a space, `&`, `#` or `<` stays one query value or
/// one fragment; the templates then escape the whole link for HTML.
struct ConsoleLinks: Sendable {
    /// The query parameter naming the app a page shows.
    static let appParameter = "app"

    /// The bundle id every link names; nil when the session sees one app.
    let app: String?

    /// The links of `app`'s pages for `session`.
    init(session: ConsoleSession, app: AppContext) {
        self.app = session.hasSeveralApps ? app.bundleId : nil
    }

    /// Links that name no app (the All apps page, sign-in).
    static let withoutApp = ConsoleLinks(app: nil)

    private init(app: String?) {
        self.app = app
    }

    /// The characters left as they are in a query value or fragment.
    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// `text` percent-encoded as UTF-8, every character but the unreserved ones.
    static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    /// `path` with the `query` parameters (values encoded) and the app, then `fragment`.
    func page(_ path: String, _ query: [(name: String, value: String)] = [], fragment: String? = nil) -> String {
        let parameters = query + (app.map { [(Self.appParameter, $0)] } ?? [])
        let search = parameters.map { "\($0.name)=\(Self.encode($0.value))" }.joined(separator: "&")
        return path + (search.isEmpty ? "" : "?" + search) + (fragment.map { "#" + $0 } ?? "")
    }

    /// The Customer page as its search finds `query`: an originalTransactionId, an appAccountToken
    /// or a transactionId.
    func customer(_ query: String) -> String {
        page("/console/customer", [("q", query)])
    }

    /// The `id` of a rule's (or veto's) row on the Rules page: `rule-annual-full-price-payer`.
    /// Rule ids are unique across a bundle's sections, so the id alone names the row.
    static func ruleAnchor(_ ruleId: String) -> String {
        "rule-" + encode(ruleId)
    }

    /// A rule's row on the Rules page.
    func rule(_ ruleId: String) -> String {
        page("/console/rules", fragment: Self.ruleAnchor(ruleId))
    }

    /// An offer decision's page.
    func offerDecision(_ id: String) -> String {
        page("/console/decisions/offers/" + Self.encode(id))
    }

    /// A refund request's page.
    func refundRequest(_ id: String) -> String {
        page("/console/decisions/refunds/" + Self.encode(id))
    }

    /// A replay's page; `file` adds its report (`report`, `report.json`).
    func replay(_ id: String, _ file: String? = nil) -> String {
        page("/console/replay/" + Self.encode(id) + (file.map { "/" + $0 } ?? ""))
    }
}
