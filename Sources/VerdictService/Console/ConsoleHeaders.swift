import HTTPTypes
import Hummingbird

/// The headers of every console answer: a strict Content-Security-Policy (only the console's own
/// style sheet; no script, no frame, forms only to the console), no sniffing, no referrer, never
/// cached, never framed.
enum ConsoleHeaders {
    static let contentSecurityPolicy =
        "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    static let page: HTTPFields = [
        .contentSecurityPolicy: contentSecurityPolicy,
        .xContentTypeOptions: "nosniff",
        HTTPField.Name("Referrer-Policy")!: "no-referrer",
        .cacheControl: "no-store",
        HTTPField.Name("X-Frame-Options")!: "DENY",
    ]
}

extension HTTPFields {
    /// These fields with `other`'s replacing any of the same name.
    func merging(_ other: HTTPFields) -> HTTPFields {
        var result = self
        for field in other { result[field.name] = field.value }
        return result
    }
}
