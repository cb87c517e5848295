import Foundation

/// The OpenAPI 3.1 description of every endpoint: `Sources/VerdictService/Resources/openapi.yaml`,
/// compiled into the binary and served at `GET /openapi.yaml`. It is the one HTTP contract: tests
/// check every real response of the service against it, and CI runs a property-based tester
/// driven by it (`Scripts/contract-check.sh`).
public enum OpenAPIDocument {
    /// The document's text, exactly as in the repository.
    public static let yaml = String(decoding: PackageResources.openapi_yaml, as: UTF8.self)
}
