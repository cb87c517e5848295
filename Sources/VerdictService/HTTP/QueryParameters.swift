import Hummingbird

/// The API's query parameters, checked as the OpenAPI document declares them: a parameter given
/// more than once, out of its bounds or of the wrong type is 400 `INVALID_PARAMETER` — never
/// clamped, never read as its first value. Unknown parameters are ignored.
extension Request {
    /// The parameter's one value, nil when absent.
    func query(_ name: String) throws -> String? {
        let values = uri.queryParameters.getAll(name)
        guard values.count <= 1 else { throw ServiceError.badRequest("INVALID_PARAMETER", "\(name) must be given once") }
        return values.first
    }

    /// `limit`: how many items to list, `default` when absent, 1…`maximum`.
    func limit(default defaultValue: Int, maximum: Int) throws -> Int {
        guard let text = try query("limit") else { return defaultValue }
        guard let limit = Int(text), (1...maximum).contains(limit) else {
            throw ServiceError.badRequest("INVALID_PARAMETER", "limit must be a whole number from 1 to \(maximum)")
        }
        return limit
    }
}
