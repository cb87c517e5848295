/// Any member name of a JSON object, to list them all.
private struct MemberName: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension Decoder {
    /// The body's object keyed by `Key`, once every member is one of `Key`'s cases: any other
    /// member is 400 `UNKNOWN_FIELD` naming it, as in every JSON body of the API. A body that is
    /// not an object throws the decoder's error (400 `MALFORMED_JSON`).
    func knownMembers<Key: CodingKey & CaseIterable>(_: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let names = try container(keyedBy: MemberName.self).allKeys.map(\.stringValue)
        try RequestBodyError.refuseUnknown(names, fields: Set(Key.allCases.map(\.stringValue)))
        return try container(keyedBy: Key.self)
    }
}
