import Foundation
import Hummingbird
import Mustache

/// The console's templates (`Resources/Console/*.mustache`, compiled in) and how a page is
/// answered: the page's template rendered into `page.mustache` (navigation, sign-out form), with
/// the console's security headers. Mustache escapes every value, so nothing the stored data holds
/// can become markup.
struct ConsoleRenderer: Sendable {
    /// A console page in the navigation.
    struct NavigationItem: Sendable {
        var href: String
        var label: String
        var current: Bool
    }

    /// What the layout shows around a page.
    struct Layout: Sendable {
        var title: String
        var signedIn: Bool
        var role: String
        var csrf: String
        var navigation: [NavigationItem]
        var body: String
        /// Reload the page after this many seconds (a replay that is running).
        var refresh: Int?
    }

    /// The pages in the navigation, in order.
    static let pages: [(href: String, label: String)] = [
        ("/console/overview", "Overview"), ("/console/rules", "Rules"), ("/console/decisions", "Decisions"), ("/console/customer", "Customer"),
        ("/console/refunds", "Refund requests"), ("/console/replay", "Replay"),
    ]

    private let library: MustacheLibrary

    /// The compiled-in templates, parsed once (a template that does not parse is a bug the tests catch).
    static let shared: ConsoleRenderer = {
        do {
            return try ConsoleRenderer()
        } catch {
            preconditionFailure("the console's templates do not parse: \(error)")
        }
    }()

    init() throws {
        var library = MustacheLibrary()
        let templates: [(String, [UInt8])] = [
            ("page", PackageResources.page_mustache), ("sign-in", PackageResources.sign_in_mustache),
            ("rules", PackageResources.rules_mustache), ("refunds", PackageResources.refunds_mustache),
            ("decisions", PackageResources.decisions_mustache), ("decision", PackageResources.decision_mustache),
            ("customer", PackageResources.customer_mustache), ("replay", PackageResources.replay_mustache),
            ("replay-status", PackageResources.replay_status_mustache), ("overview", PackageResources.overview_mustache),
        ]
        for (name, bytes) in templates {
            library.register(try MustacheTemplate(string: String(decoding: bytes, as: UTF8.self)), named: name)
        }
        self.library = library
    }

    /// The console's style sheet.
    static var styleSheet: Response {
        Response(
            status: .ok, headers: ConsoleHeaders.page.merging([.contentType: "text/css; charset=utf-8", .cacheControl: "max-age=300"]),
            body: .init(byteBuffer: ByteBuffer(bytes: PackageResources.console_css)))
    }

    /// The page `template` rendered with `values`, inside the layout.
    func page(_ template: String, title: String, session: ConsoleSession?, current: String? = nil, values: Any,
              status: HTTPResponse.Status = .ok, headers: HTTPFields = [:], refresh: Int? = nil) -> Response {
        let body = library.render(values, withTemplate: template) ?? ""
        let layout = Layout(
            title: title, signedIn: session != nil, role: session?.role.rawValue ?? "", csrf: session?.csrfToken ?? "",
            navigation: Self.pages.map { NavigationItem(href: $0.href, label: $0.label, current: $0.href == current) },
            body: body, refresh: refresh)
        let html = library.render(layout, withTemplate: "page") ?? ""
        return Response(
            status: status, headers: ConsoleHeaders.page.merging([.contentType: "text/html; charset=utf-8"]).merging(headers),
            body: .init(byteBuffer: ByteBuffer(string: html)))
    }
}
