import AppStoreServer
import AppStoreSimulator
import Foundation

/// The apps `verdict bench intake --apps N` spreads its notifications over: the first is
/// `--bundle-id`, the others `<bundle id>.2` … `<bundle id>.N`, each with an App Apple ID of its
/// own; one service serves them all from a config file (a single app needs none).
struct IntakeBenchApps {
    let templates: [BenchNotifications.Template]

    init(count: Int, template: BenchNotifications.Template) {
        templates = (0..<count).map { index in
            var app = template
            if index > 0 {
                app.bundleId = "\(template.bundleId).\(index + 1)"
                app.appAppleId = template.appAppleId + Int64(index)
            }
            return app
        }
    }

    /// `count` notifications, as evenly spread over the apps as they divide, interleaved (app 1,
    /// app 2, …, app 1, …) so every moment of the burst reaches every app.
    func mint(count: Int, signer: AppStoreSigner) async throws -> [String] {
        var perApp: [[String]] = []
        for (index, template) in templates.enumerated() {
            let share = count / templates.count + (index < count % templates.count ? 1 : 0)
            perApp.append(try await BenchNotifications.mintInParallel(count: share, template: template, signer: signer))
        }
        var interleaved: [String] = []
        interleaved.reserveCapacity(count)
        for position in 0..<(perApp.first?.count ?? 0) {
            for notifications in perApp where position < notifications.count { interleaved.append(notifications[position]) }
        }
        return interleaved
    }

    /// Writes the service's config file naming every app (the shipped rules folder for each) into
    /// `directory` and returns its path.
    func writeConfigFile(in directory: URL) throws -> String {
        let apps: [[String: Any]] = templates.map { template in
            var app: [String: Any] = ["bundleId": template.bundleId, "rules": ["dir": "Rules"]]
            if template.environment == .production { app["appAppleId"] = template.appAppleId }
            return app
        }
        let data = try JSONSerialization.data(withJSONObject: ["apps": apps], options: [.prettyPrinted, .sortedKeys])
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("bench-apps.json")
        try data.write(to: file)
        return file.path
    }
}
