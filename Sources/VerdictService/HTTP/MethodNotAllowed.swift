import HTTPTypes
import Hummingbird
import Synchronization

/// The methods each routed path serves, so that a request for a known path with any other method
/// — a standard one (`PATCH`, `OPTIONS`, `HEAD`…) or one no server knows (`BREW`) — is answered
/// 405 with `Allow` instead of the router's 404 (``ErrorMiddleware`` asks ``allow(for:)``).
///
/// Filled by ``record(_:)`` once every route is added; empty until then (every miss stays 404).
final class MethodNotAllowed: Sendable {
    private let paths = Mutex<[(path: RouterPath, allow: String)]>([])

    /// Records the paths and methods of `router`'s routes.
    func record(_ router: Router<ServiceRequestContext>) {
        var served: [String: (path: RouterPath, methods: Set<String>)] = [:]
        for route in router.routes {
            served[route.path.description, default: (route.path, [])].methods.insert(route.method.rawValue)
        }
        let table = served.values.map { ($0.path, $0.methods.sorted().joined(separator: ", ")) }
        paths.withLock { $0 = table }
    }

    /// The `Allow` value of the routed path `path` falls on (the most literal one where several
    /// do, as the router prefers), or nil when no route has it.
    func allow(for path: String) -> String? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        return paths.withLock { paths in
            paths.compactMap { entry in Self.literalMatches(entry.path, segments).map { (entry.allow, $0) } }
                .max { $0.1 < $1.1 }?.0
        }
    }

    /// Nil when `segments` (a request path) do not fall on `path` (a route's, with `{parameter}`s);
    /// else how many of its elements matched literally.
    static func literalMatches(_ path: RouterPath, _ segments: [Substring]) -> Int? {
        var remaining = segments[...]
        var literal = 0
        for element in path.components {
            if element.description == "**" { return literal }
            guard let segment = remaining.popFirst(), element ~= segment else { return nil }
            if element == segment { literal += 1 }
        }
        return remaining.isEmpty ? literal : nil
    }
}
