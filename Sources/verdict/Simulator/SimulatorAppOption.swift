import ArgumentParser

/// One `--app bundleId[:appAppleId]` of `verdict simulator`: an app the simulator serves.
struct SimulatorAppOption: ExpressibleByArgument, Equatable, Sendable {
    /// The app's bundle identifier: letters, digits, `.` and `-` (Apple's alphabet; also a
    /// directory name under the state directory).
    let bundleId: String
    /// The app's Apple ID, when given.
    let appAppleId: Int64?

    init(bundleId: String, appAppleId: Int64?) {
        self.bundleId = bundleId
        self.appAppleId = appAppleId
    }

    init?(argument: String) {
        let parts = argument.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let bundleId = String(parts[0])
        guard Self.isValidBundleId(bundleId) else { return nil }
        if parts.count == 2 {
            guard let appAppleId = Int64(parts[1]), appAppleId > 0 else { return nil }
            self.init(bundleId: bundleId, appAppleId: appAppleId)
        } else {
            self.init(bundleId: bundleId, appAppleId: nil)
        }
    }

    static var defaultValueDescription: String { "bundleId[:appAppleId]" }

    /// Whether `text` is a bundle id Apple would accept: non-empty, letters, digits, `.` and `-`,
    /// not starting with `.`.
    static func isValidBundleId(_ text: String) -> Bool {
        !text.isEmpty && !text.hasPrefix(".")
            && text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "." || $0 == "-") }
    }
}
