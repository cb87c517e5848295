import Foundation
import Testing
import VerdictTestSupport

@testable import VerdictStorage

@Suite("Storage: customer attributes")
struct CustomerAttributesStorageTests {
    @Test("attributes are replaced as a whole and read back", arguments: TestBackend.selected)
    func replaceAndRead(_ backend: TestBackend) async throws {
        try await TestDatabase.withRepository(backend) { repository, _ async throws in
            let token = "6f1c2b52-9d4e-4a43-9a0b-0c1a2f3e4d5c"
            #expect(try await repository.customerAttributes(appAccountToken: token) == nil)
            let first = CustomerAttributesRecord(appAccountToken: token, json: #"{"exportsLast30Days":3}"#, updatedAt: 10)
            try await repository.setCustomerAttributes(first)
            #expect(try await repository.customerAttributes(appAccountToken: token) == first)
            let second = CustomerAttributesRecord(appAccountToken: token, json: "{}", updatedAt: 20)
            try await repository.setCustomerAttributes(second)
            #expect(try await repository.customerAttributes(appAccountToken: token) == second)
            #expect(try await repository.customerAttributes(appAccountToken: "other") == nil)
        }
    }
}
