import AppStoreServer
import Foundation
import Testing

@Suite("Consumption request model")
struct ConsumptionRequestModelTests {
    @Test func encodesTheFullExampleWithSortedKeys() throws {
        let request = ConsumptionRequest(
            customerConsented: true,
            consumptionPercentage: 50000,
            deliveryStatus: .delivered,
            refundPreference: .grantFull,
            sampleContentProvided: false
        )
        let bytes = try AppStoreJSON.encoder().encode(request)
        // The reference prints the keys in Apple's declaration order; the sorted-keys encoder puts
        // `consumptionPercentage` first. Same JSON object, so compare it as an object too.
        #expect(String(decoding: bytes, as: UTF8.self)
            == #"{"consumptionPercentage":50000,"customerConsented":true,"deliveryStatus":"DELIVERED","refundPreference":"GRANT_FULL","sampleContentProvided":false}"#)
        let reference = #"{"customerConsented":true,"consumptionPercentage":50000,"deliveryStatus":"DELIVERED","refundPreference":"GRANT_FULL","sampleContentProvided":false}"#
        #expect(try jsonObject(bytes) == jsonObject(Data(reference.utf8)))
    }

    /// A flat JSON object's members, compared independently of key order.
    private func jsonObject(_ data: Data) throws -> [String: FlatJSONValue] {
        try JSONDecoder().decode([String: FlatJSONValue].self, from: data)
    }

    @Test func encodesTheMinimalExampleWithoutNulls() throws {
        let request = ConsumptionRequest(customerConsented: true, deliveryStatus: .undeliveredQualityIssue, sampleContentProvided: false)
        let bytes = try AppStoreJSON.encoder().encode(request)
        #expect(String(decoding: bytes, as: UTF8.self)
            == #"{"customerConsented":true,"deliveryStatus":"UNDELIVERED_QUALITY_ISSUE","sampleContentProvided":false}"#)
    }

    @Test func decodesWhatItEncodes() throws {
        let request = ConsumptionRequest(
            customerConsented: true, consumptionPercentage: 0, deliveryStatus: .undeliveredServerOutage,
            refundPreference: .decline, sampleContentProvided: true
        )
        #expect(try ModelFixture.decode(ConsumptionRequest.self, json: ModelFixture.encode(request)) == request)
    }

    @Test func requiresDeliveryStatus() {
        #expect(throws: DecodingError.self) {
            try ModelFixture.decode(ConsumptionRequest.self, json: #"{"customerConsented":true,"sampleContentProvided":false}"#)
        }
    }

    @Test func requiresCustomerConsented() {
        #expect(throws: DecodingError.self) {
            try ModelFixture.decode(ConsumptionRequest.self, json: #"{"deliveryStatus":"DELIVERED","sampleContentProvided":false}"#)
        }
    }

    @Test func requiresSampleContentProvided() {
        #expect(throws: DecodingError.self) {
            try ModelFixture.decode(ConsumptionRequest.self, json: #"{"customerConsented":true,"deliveryStatus":"DELIVERED"}"#)
        }
    }
}

/// A scalar JSON value (boolean, number or string) that keeps its JSON type.
enum FlatJSONValue: Decodable, Equatable {
    case bool(Bool)
    case number(Double)
    case string(String)

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else {
            self = .string(try container.decode(String.self))
        }
    }
}
