import Foundation
import VerdictStorage

extension AppContext {
    /// Whether this app stores the subscription (purchase chain) `originalTransactionId`: its
    /// customer record, or one of its transactions (a chain read only through its customer's
    /// history has no record of its own). The App Store's ids name one app's purchase, so at most
    /// one app holds a chain; where test ids repeat across apps (Xcode's local testing), the
    /// `Verdict-App` header names the app.
    func holdsSubscription(_ originalTransactionId: String) async throws -> Bool {
        if try await repository.customer(originalTransactionId: originalTransactionId) != nil { return true }
        return try await !repository.transactions(originalTransactionId: originalTransactionId).isEmpty
    }
}
