import AppStoreServer
import AppStoreSimulator
import Foundation
import Testing
import VerdictService
import VerdictStorage

/// What a chaos run left behind, counted from the simulator (what Apple published, delivered and
/// received) and the database (what Verdict stored, decided and sent), with every departure from
/// "exactly once" listed.
struct ChaosReport {
    var published = 0
    var acknowledged = 0
    var deliveryAttempts = 0
    var stored = 0
    var storedInAll = 0
    /// Acknowledged to Apple but not stored.
    var lost: [String] = []
    var notProcessedOnce: [String] = []
    var triggers = 0
    var triggersWithoutOneDecision: [String] = []
    var decisions = 0
    var offersMade = 0
    var cappedOffersMade = 0
    var cappedOffersCounted = 0
    var webhookDeliveries = 0
    var offerEvents = 0
    var consumptionEvents = 0
    var eventMismatches: [String] = []
    var consumptionRequests = 0
    var requestProblems: [String] = []
    var bodiesAtApple = 0
    var repeats = 0
    var outcomeUnknown = 0
    var deadJobs = 0

    var neverAcknowledged: Int { published - acknowledged }

    static func make(load: ChaosLoad, harness: ServiceHarness, receiver: WebhookReceiver, cappedOffer: String) async throws -> ChaosReport {
        let repository = harness.service.apps.first.repository
        var report = ChaosReport()
        let published = load.all
        report.published = published.count
        var storedUUIDs: Set<String> = []
        for item in published {
            let simulated = await harness.store.notification(uuid: item.notificationUUID)
            let acknowledged = simulated?.wasDelivered == true
            report.deliveryAttempts += simulated?.sendAttempts.count ?? 0
            if acknowledged { report.acknowledged += 1 }
            guard let stored = try await repository.notification(uuid: item.notificationUUID) else {
                if acknowledged { report.lost.append(item.notificationUUID) }
                continue
            }
            storedUUIDs.insert(item.notificationUUID)
            if stored.state != .processed || stored.processedCount != 1 {
                report.notProcessedOnce.append("\(item.notificationUUID): \(stored.state) ×\(stored.processedCount)")
            }
        }
        report.stored = storedUUIDs.count
        report.storedInAll = try await repository.notificationCount()

        let decisions = try await report.countDecisions(published.filter { storedUUIDs.contains($0.notificationUUID) }, repository)
        report.cappedOffersMade = decisions.filter { $0.offerId == cappedOffer && !$0.heldOut }.count
        report.cappedOffersCounted = try await repository.grantedOffers(.offer(cappedOffer), since: 0)
        let requests = published.filter { $0.notificationType == .consumptionRequest && storedUUIDs.contains($0.notificationUUID) }
        try await report.countConsumption(requests, repository, received: await harness.store.receivedConsumptionInformation())
        report.countEvents(receiver.deliveries, decisions: decisions, requests: requests)
        report.deadJobs = try await repository.queueStatistics(now: Date().appStoreMilliseconds).dead
        return report
    }

    /// One decision per stored trigger (auto-renew turned off, expiry), none for anything else.
    private mutating func countDecisions(_ stored: [SimulatedNotification], _ repository: any VerdictRepository) async throws
        -> [OfferDecisionRecord] {
        let triggers = stored.filter {
            ($0.notificationType == .didChangeRenewalStatus && $0.subtype == .autoRenewDisabled) || $0.notificationType == .expired
        }
        self.triggers = triggers.count
        var decisions: [OfferDecisionRecord] = []
        for (otid, items) in Dictionary(grouping: triggers, by: { $0.originalTransactionId ?? "" }) {
            let records = try await repository.offerDecisions(originalTransactionId: otid, limit: 100)
            decisions += records
            let perNotification = Dictionary(grouping: records, by: \.notificationUUID).mapValues(\.count)
            for item in items where perNotification[item.notificationUUID] != 1 {
                triggersWithoutOneDecision.append("\(item.notificationUUID): \(perNotification[item.notificationUUID] ?? 0) decisions")
            }
            if records.count != items.count { triggersWithoutOneDecision.append("\(otid): \(records.count) decisions, \(items.count) triggers") }
        }
        self.decisions = decisions.count
        offersMade = decisions.filter { $0.offerId != nil && !$0.heldOut }.count
        return decisions
    }

    /// One consumption request per notification, settled; Apple received one body per request sent,
    /// and a repeat only where an attempt's outcome is unknown (the process stopped during the call).
    private mutating func countConsumption(_ requests: [SimulatedNotification], _ repository: any VerdictRepository,
                                           received: [ReceivedConsumptionInformation]) async throws {
        consumptionRequests = requests.count
        let bodies = Dictionary(grouping: received, by: \.transactionId).mapValues(\.count)
        bodiesAtApple = received.count
        for item in requests {
            guard let transactionId = item.transactionId else { continue }
            let records = try await repository.consumptionRequests(transactionId: transactionId).filter { $0.notificationUUID == item.notificationUUID }
            guard records.count == 1, let record = records.first else {
                requestProblems.append("\(item.notificationUUID): \(records.count) requests recorded")
                continue
            }
            if record.state == .pending { requestProblems.append("\(item.notificationUUID): still pending") }
            let unknown = try await repository.consumptionAttempts(requestId: record.id)
                .filter { $0.errorMessage == ConsumptionAttemptRecord.outcomeUnknown }.count
            outcomeUnknown += unknown
            let atApple = bodies[transactionId] ?? 0
            let expected = record.state == .sent ? 1 : 0
            if atApple < expected { requestProblems.append("\(item.notificationUUID): sent, but Apple received nothing") }
            repeats += max(0, atApple - expected)
            if atApple - expected > unknown {
                requestProblems.append("\(item.notificationUUID): Apple received \(atApple) bodies, \(unknown) attempts of unknown outcome")
            }
        }
    }

    /// One event id per decision that targeted an offer and per consumption request.
    private mutating func countEvents(_ deliveries: [WebhookReceiver.Delivery], decisions: [OfferDecisionRecord],
                                      requests: [SimulatedNotification]) {
        webhookDeliveries = deliveries.count
        var offerIds: Set<String> = []
        var consumptionIds: Set<String> = []
        for delivery in deliveries {
            let event = JSONValue.parse(Data(delivery.body.utf8))?.objectValue
            guard let id = event?["id"]?.stringValue else { eventMismatches.append("an event without an id"); continue }
            switch event?["type"]?.stringValue {
            case "offer.targeted": offerIds.insert(id)
            case "consumption.requested": consumptionIds.insert(id)
            default: eventMismatches.append("an event of type \(event?["type"]?.stringValue ?? "none")")
            }
        }
        offerEvents = offerIds.count
        consumptionEvents = consumptionIds.count
        let targeted = Set(decisions.filter { $0.offerId != nil && !$0.heldOut }.map(\.id))
        if offerIds != targeted {
            eventMismatches.append("offer.targeted: \(offerIds.subtracting(targeted).count) ids without a decision, "
                                   + "\(targeted.subtracting(offerIds).count) decisions without an event")
        }
        if consumptionIds != Set(requests.map(\.notificationUUID)) {
            eventMismatches.append("consumption.requested: \(consumptionIds.count) ids for \(requests.count) requests")
        }
    }

    /// The exact expectations of the run.
    func expectExact(cap: Int) {
        #expect(lost.isEmpty, "acknowledged but not stored: \(lost.prefix(5))")
        #expect(storedInAll == stored, "\(storedInAll) notifications stored, \(stored) of them published")
        #expect(notProcessedOnce.isEmpty, "not processed exactly once: \(notProcessedOnce.prefix(5))")
        #expect(triggersWithoutOneDecision.isEmpty, "\(triggersWithoutOneDecision.prefix(5))")
        #expect(cappedOffersMade <= cap && cappedOffersCounted == cappedOffersMade, "capped offer made \(cappedOffersMade) times, cap \(cap)")
        #expect(cappedOffersMade > 0, "the capped offer was never made")
        #expect(eventMismatches.isEmpty, "\(eventMismatches.prefix(5))")
        #expect(requestProblems.isEmpty, "\(requestProblems.prefix(5))")
        #expect(deadJobs == 0)
    }

    var summary: String {
        "\(published) notifications published, \(acknowledged) acknowledged (\(neverAcknowledged) never, after Apple's retries), "
            + "\(deliveryAttempts) delivery attempts; \(stored) stored, each processed once; \(triggers) offer triggers → "
            + "\(decisions) decisions, \(offersMade) offers (the capped one \(cappedOffersMade) times, cap \(ChaosTests.cap)); "
            + "\(consumptionRequests) consumption requests → \(bodiesAtApple) bodies at Apple (\(repeats) repeats, "
            + "\(outcomeUnknown) attempts of unknown outcome); \(offerEvents + consumptionEvents) webhook event ids in "
            + "\(webhookDeliveries) deliveries; \(deadJobs) dead jobs"
    }
}
