import Foundation
import Hummingbird

/// The fields of a console form (`application/x-www-form-urlencoded`, at most 8 KiB).
enum ConsoleForm {
    static let maximumBytes = 8 * 1024

    static func read(_ request: Request) async throws -> [String: String] {
        let data = try await JSONBody.collectBytes(request, limit: maximumBytes)
        var fields: [String: String] = [:]
        for pair in String(decoding: data, as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decoded(_ text: Substring) -> String {
                String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            }
            guard let name = parts.first.map(decoded), fields[name] == nil else { continue }
            fields[name] = parts.count > 1 ? decoded(parts[1]) : ""
        }
        return fields
    }
}
