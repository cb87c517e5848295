import Foundation

/// The console's links to its own pages, built from stored values: every value is percent-encoded
/// (only ASCII letters, digits and `-._~` stay as they are), so an id with a space, `&`, `#` or `<`
/// stays one query value or one fragment; the templates then escape the whole link for HTML.
enum ConsoleLinks {
    /// The characters left as they are in a query value or fragment.
    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// `text` percent-encoded as UTF-8, every character but the unreserved ones.
    static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    /// The Customer page as its search finds `query`: an originalTransactionId, an appAccountToken
    /// or a transactionId.
    static func customer(_ query: String) -> String {
        "/console/customer?q=" + encode(query)
    }

    /// The `id` of a rule's (or veto's) row on the Rules page: `rule-annual-full-price-payer`.
    /// Rule ids are unique across a bundle's sections, so the id alone names the row.
    static func ruleAnchor(_ ruleId: String) -> String {
        "rule-" + encode(ruleId)
    }

    /// A rule's row on the Rules page.
    static func rule(_ ruleId: String) -> String {
        "/console/rules#" + ruleAnchor(ruleId)
    }
}
