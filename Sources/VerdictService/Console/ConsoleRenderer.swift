import Foundation
import Hummingbird
import Mustache

/// The console's templates (`Resources/Console/*.mustache`, compiled in) and how a page is
/// answered: the page's template rendered into `page.mustache` (navigation, app switcher, sign-out
/// form), with the console's security headers. Mustache escapes every value, so nothing the stored
/// data holds can become markup.
struct ConsoleRenderer: Sendable {
    /// A console page in the navigation.
    struct NavigationItem: Sendable {
        var href: String
        var label: String
        var current: Bool
    }

    /// The app switcher of a session of several apps: a form that opens `action` (the current
    /// section's page) for the chosen app.
    struct Switcher: Sendable {
        struct Option: Sendable {
            var value: String
            var selected: Bool
        }

        var action: String
        /// No app is shown (the All apps page): the list asks for one.
        var prompt: Bool
        var options: [Option]
    }

    /// What the layout shows around a page.
    struct Layout: Sendable {
        var title: String
        /// The app the page shows, named in the title when the session sees several.
        var app: String?
        var signedIn: Bool
        var role: String
        var csrf: String
        var navigation: [NavigationItem]
        var switcher: Switcher?
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
            ("apps", PackageResources.apps_mustache), ("period", PackageResources.period_mustache),
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

    /// The page `template` of `scope`'s app rendered with `values`, inside the layout; `current` is
    /// the navigation's page it is (or belongs to).
    func page(_ template: String, title: String, scope: ConsoleScope, current: String? = nil, values: Any,
              status: HTTPResponse.Status = .ok, headers: HTTPFields = [:], refresh: Int? = nil) -> Response {
        page(template, title: title, session: scope.session, app: scope.app, current: current, values: values,
             status: status, headers: headers, refresh: refresh)
    }

    /// The page `template` rendered with `values`, inside the layout: for `session` (nil: signed
    /// out) and the app it shows (nil: a page of no one app, the All apps page).
    func page(_ template: String, title: String, session: ConsoleSession?, app: AppContext? = nil, current: String? = nil,
              values: Any, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:], refresh: Int? = nil) -> Response {
        let body = library.render(values, withTemplate: template) ?? ""
        let several = session?.hasSeveralApps ?? false
        var navigation: [NavigationItem] = []
        if let session, let app {
            let links = ConsoleLinks(session: session, app: app)
            navigation = Self.pages.map { NavigationItem(href: links.page($0.href), label: $0.label, current: $0.href == current) }
        }
        if several {
            let path = ConsoleAccess.allAppsPath
            navigation.insert(NavigationItem(href: path, label: "All apps", current: current == path), at: 0)
        }
        let section = current.flatMap { current in Self.pages.first { $0.href == current }?.href } ?? Self.pages[0].href
        let switcher = several ? session.map { session in
            Switcher(
                action: section, prompt: app == nil, options: session.apps.map { Switcher.Option(value: $0.bundleId, selected: $0 === app) })
        } : nil
        let layout = Layout(
            title: title, app: several ? app?.bundleId : nil, signedIn: session != nil, role: session?.role.rawValue ?? "",
            csrf: session?.csrfToken ?? "", navigation: navigation, switcher: switcher, body: body, refresh: refresh)
        let html = library.render(layout, withTemplate: "page") ?? ""
        return Response(
            status: status, headers: ConsoleHeaders.page.merging([.contentType: "text/html; charset=utf-8"]).merging(headers),
            body: .init(byteBuffer: ByteBuffer(string: html)))
    }
}
