/// Optional members of a decoded request body that, when present, must hold a value of their
/// type: `null` or a value of another type is 400 `INVALID_FIELD` naming what was expected
/// (leave an optional member out instead of sending `null`).
extension KeyedDecodingContainer {
    func field<T: Decodable>(_ key: Key, _ expected: String) throws(RequestBodyError) -> T? {
        guard contains(key) else { return nil }
        guard (try? decodeNil(forKey: key)) == false, let value = try? decode(T.self, forKey: key) else {
            throw .invalidField(key.stringValue, expected)
        }
        return value
    }
}
