/// Decoding for the sub-objects whose JSON shape Apple has not confirmed (the multiseat objects and
/// `unclaimInfo`): a member that is missing, `null` or of another JSON type reads as nil, and a value
/// that is not a JSON object reads as an object without members, so a notification or transaction
/// is never refused because one of these sub-objects differs from what this code expects.
///
/// The payloads' JSON is stored as Apple signed it, so nothing read as nil here is lost.
extension Decoder {
    /// The keyed container of this value, or nil when the value is not a JSON object.
    func tolerantContainer<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedDecodingContainer<Key>? {
        try? container(keyedBy: type)
    }
}

extension KeyedDecodingContainer {
    /// The member at `key`, nil when it is missing, `null` or not a `T`.
    func tolerantValue<T: Decodable>(_ type: T.Type, forKey key: Key) -> T? {
        (try? decodeIfPresent(type, forKey: key)) ?? nil
    }
}
