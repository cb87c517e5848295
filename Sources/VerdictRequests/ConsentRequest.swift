import Foundation

/// The body of `PUT …/consent`: `{"consented": bool, "at", "source", "termsVersion"}` — the
/// customer's answer, when they gave it (UNIX milliseconds or ISO 8601; default now), where
/// (e.g. `settings-screen`) and under which terms.
public struct ConsentRequest: JSONRequestBody {
    public var consented: Bool
    public var at: Int64?
    public var source: String
    public var termsVersion: String?

    public init(from decoder: any Decoder) throws {
        let fields = try JSONFields(decoder, allowed: ["consented", "at", "source", "termsVersion"])
        consented = try fields.required(try fields.bool("consented"), "consented")
        at = try fields.timestamp("at")
        source = try fields.required(try fields.string("source"), "source")
        termsVersion = try fields.string("termsVersion")
    }
}
