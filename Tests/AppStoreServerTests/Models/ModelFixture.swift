import AppStoreServer
import Foundation

/// Loads and round-trips the JSON used by the model tests.
enum ModelFixture {
    struct Missing: Error, CustomStringConvertible {
        let name: String
        var description: String { "fixture Fixtures/models/\(name).json is not in the test bundle" }
    }

    /// The bytes of `Fixtures/models/<name>.json`.
    static func data(_ name: String) throws -> Data {
        guard let url = Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Fixtures/models") else {
            throw Missing(name: name)
        }
        return try Data(contentsOf: url)
    }

    /// Decodes `Fixtures/models/<name>.json` with ``AppStoreJSON/decoder()``.
    static func decode<T: Decodable>(_ type: T.Type, fixture name: String) throws -> T {
        try AppStoreJSON.decoder().decode(T.self, from: data(name))
    }

    /// Decodes inline JSON with ``AppStoreJSON/decoder()``.
    static func decode<T: Decodable>(_ type: T.Type, json: String) throws -> T {
        try AppStoreJSON.decoder().decode(T.self, from: Data(json.utf8))
    }

    /// Encodes with ``AppStoreJSON/encoder()`` (sorted keys, compact) and returns the text.
    static func encode(_ value: some Encodable) throws -> String {
        String(decoding: try AppStoreJSON.encoder().encode(value), as: UTF8.self)
    }

    /// `milliseconds` after 1970 as a `Date`.
    static func date(_ milliseconds: Int64) -> Date {
        Date(appStoreMilliseconds: milliseconds)
    }
}

extension ModelFixture {
    /// ``ResponseBodyV2DecodedPayload/appIdentity`` as an `Equatable` value for `#expect`.
    struct Identity: Equatable, CustomStringConvertible {
        var bundleId: String?
        var appAppleId: Int64?
        var environment: AppStoreEnvironment?

        init(bundleId: String?, appAppleId: Int64?, environment: AppStoreEnvironment?) {
            self.bundleId = bundleId
            self.appAppleId = appAppleId
            self.environment = environment
        }

        init(_ payload: ResponseBodyV2DecodedPayload) {
            let identity = payload.appIdentity
            self.init(bundleId: identity.bundleId, appAppleId: identity.appAppleId, environment: identity.environment)
        }

        var description: String {
            "(\(bundleId ?? "nil"), \(appAppleId.map(String.init) ?? "nil"), \(environment?.rawValue ?? "nil"))"
        }
    }
}
