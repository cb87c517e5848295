import Foundation

extension KeyedDecodingContainer {
    /// A UUID written as a string (either case); a decoding error naming the key when it is not one.
    func decodeUUIDString(forKey key: Key) throws -> UUID {
        let text = try decode(String.self, forKey: key)
        guard let uuid = UUID(uuidString: text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "\(key.stringValue) is not a UUID")
        }
        return uuid
    }
}
