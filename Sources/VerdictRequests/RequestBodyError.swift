/// Why a request body was refused, before any HTTP: the edge answers it as Verdict's JSON error
/// (`{"error":{"code":"…","message":"…"}}`) with the status its ``Kind`` names.
///
/// Messages are written for the caller; they quote field names, never a submitted value longer
/// than a short excerpt.
public struct RequestBodyError: Error, Sendable, Equatable {
    /// Which answer the refusal is.
    public enum Kind: Sendable, Equatable {
        /// 400: the body is not what the endpoint reads (not JSON, a missing or mistyped field).
        case badRequest
        /// 422: the body is well formed but a value is outside what it may be.
        case unprocessable
    }

    public var kind: Kind
    public var code: String
    public var message: String

    public init(_ kind: Kind, code: String, message: String) {
        self.kind = kind
        self.code = code
        self.message = message
    }

    /// 400 with `code`.
    public static func badRequest(_ code: String, _ message: String) -> Self { Self(.badRequest, code: code, message: message) }
    /// 422 with `code`.
    public static func unprocessable(_ code: String, _ message: String) -> Self { Self(.unprocessable, code: code, message: message) }

    /// 400 `INVALID_FIELD`: `name` holds `null` or a value that is not `expected`.
    static func invalidField(_ name: String, _ expected: String) -> Self {
        badRequest("INVALID_FIELD", "'\(name)' must be \(expected)")
    }

    /// 400 `DUPLICATE_KEY`: an object of the body names `name` twice (shown cut to 64 characters).
    public static func duplicateKey(_ name: String) -> Self {
        badRequest("DUPLICATE_KEY", "the key '\(shown(name))' appears more than once in one object")
    }

    /// 400 `UNKNOWN_FIELD` for the first, in sorted order, of `names` (a body object's members)
    /// that is not one of `fields` (shown cut to 64 characters): every JSON body of the API
    /// refuses what it does not read, so a misspelt or misplaced field never goes unnoticed.
    static func refuseUnknown(_ names: some Sequence<String>, fields: Set<String>) throws(RequestBodyError) {
        guard let unknown = names.filter({ !fields.contains($0) }).min() else { return }
        throw badRequest("UNKNOWN_FIELD", "'\(shown(unknown))' is not a field here (fields: \(fields.sorted().joined(separator: ", ")))")
    }

    /// `name` cut to 64 characters for a message.
    private static func shown(_ name: String) -> Substring {
        name.count > 64 ? name.prefix(64) + "…" : Substring(name)
    }
}
