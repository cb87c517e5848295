import Hummingbird

/// The API's query parameters, checked as the OpenAPI document declares them (400
/// `INVALID_PARAMETER` for a value out of bounds or of the wrong type; never clamped).
extension Request {
    /// `limit`: how many items to list, `default` when absent, 1…`maximum`.
    func limit(default defaultValue: Int, maximum: Int) throws -> Int {
        guard let text = uri.queryParameters.get("limit") else { return defaultValue }
        guard let limit = Int(text), (1...maximum).contains(limit) else {
            throw ServiceError.badRequest("INVALID_PARAMETER", "limit must be a whole number from 1 to \(maximum)")
        }
        return limit
    }
}
