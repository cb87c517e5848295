/// One app `verdict demo` serves: a fictional App Store app with its bundle id, App Apple ID and
/// rule bundle. The simulator gives each app a store and an In-App Purchase key of its own; the
/// service lists each as an entry of its config file's `"apps"`.
struct DemoApp: Sendable, Hashable {
    /// The app's name in the output (`Lumen`).
    var name: String
    /// What the app is, for the banner (`a photo editor with a Pro subscription`).
    var tagline: String
    var bundleId: String
    var appAppleId: Int64
    /// The rule bundle folder (absolute).
    var rulesDirectory: String

    /// `Lumen (com.lumen.app)`: how a case says which app it is about.
    var label: String { "\(name) (\(bundleId))" }

    /// Lumen, the photo editor of the shipped bundle (`Rules/`).
    static func lumen(rulesDirectory: String) -> DemoApp {
        DemoApp(name: "Lumen", tagline: "a photo editor with a Pro subscription", bundleId: "com.lumen.app",
                appAppleId: 1_234_567_890, rulesDirectory: rulesDirectory)
    }

    /// Tempo, the running coach of `examples/tempo/`.
    static func tempo(rulesDirectory: String) -> DemoApp {
        DemoApp(name: "Tempo", tagline: "a running coach with a monthly and an annual plan", bundleId: "com.tempo.app",
                appAppleId: 1_987_654_321, rulesDirectory: rulesDirectory)
    }
}
