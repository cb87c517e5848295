import HTTPTypes
import Hummingbird

/// 405 with `Allow` for a method a known path does not serve (instead of the router's 404):
/// `register(on:)` runs after every route is added and fills each path's other methods.
enum MethodNotAllowed {
    /// The methods answered 405 where a path does not serve them.
    static let methods: [HTTPRequest.Method] = [.get, .post, .put, .patch, .delete, .options, .trace, HTTPRequest.Method("QUERY")!]

    static func register(on router: Router<ServiceRequestContext>) {
        var served: [String: (path: RouterPath, methods: Set<HTTPRequest.Method>)] = [:]
        for route in router.routes {
            served[route.path.description, default: (route.path, [])].methods.insert(route.method)
        }
        for (path, methods) in served.values {
            let allow = methods.map(\.rawValue).sorted().joined(separator: ", ")
            for method in Self.methods where !methods.contains(method) {
                router.on(path, method: method) { _, _ -> Response in
                    throw ServiceError(
                        .methodNotAllowed, code: "METHOD_NOT_ALLOWED", message: "\(method.rawValue) is not served here (allowed: \(allow))",
                        headers: [.allow: allow])
                }
            }
        }
    }
}
