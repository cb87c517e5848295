import AppStoreServer
import Foundation
import RuleEngine
import VerdictStorage

/// The images of `messages.yaml` in a sync: uploaded before the messages that show them, deleted
/// after the messages that showed them, their review states recorded beside the messages'.
extension RetentionMessageSync {
    /// Apple's images by identifier, with their review states.
    func imageStates() async throws -> [UUID: ReviewState] {
        var states: [UUID: ReviewState] = [:]
        for item in try await client.getImageList().imageIdentifiers ?? [] {
            if let identifier = item.imageIdentifier { states[identifier] = item.imageState ?? .pending }
        }
        return states
    }

    /// Uploads every image of the bundle Apple does not have, read (and checked) from the bundle
    /// folder; returns the identifiers uploaded.
    func uploadImages(missingFrom apple: [UUID: ReviewState]) async throws -> Set<UUID> {
        var uploaded: Set<UUID> = []
        for image in messages.images where apple[image.identifier] == nil && !uploaded.contains(image.identifier) {
            guard let directory = imagesDirectory else {
                throw RetentionImageFiles.Problem(image: image, reason: "no bundle folder to read it from")
            }
            let png = try RetentionImageFiles.read(image, directory: directory)
            // 409: uploaded meanwhile (another sync); the list shows its state.
            try await Self.ignoring(409) { () async throws(AppStoreAPIFailure) in
                try await client.uploadImage(png, imageIdentifier: image.identifier, imageSize: ImageSize(rawValue: image.size))
            }
            uploaded.insert(image.identifier)
        }
        return uploaded
    }

    /// Deletes the images Verdict uploaded earlier that the bundle no longer has (after their
    /// messages were deleted); returns their report rows.
    func deleteRemovedImages(recorded: [RetentionMessageState], apple: [UUID: ReviewState]) async throws -> [Row] {
        let wanted = Set(messages.images.map(\.identifier))
        var rows: [Row] = []
        var forgotten: [String] = []
        for state in recorded where state.kind == .image {
            guard let identifier = UUID(uuidString: state.messageIdentifier), !wanted.contains(identifier) else { continue }
            if apple[identifier] != nil {
                try await Self.ignoring(404) { () async throws(AppStoreAPIFailure) in try await client.deleteImage(imageIdentifier: identifier) }
            }
            forgotten.append(state.messageIdentifier)
            rows.append(Row(messageId: "image " + state.messageId, locale: state.locale, messageIdentifier: identifier, state: "-",
                            action: "deleted"))
        }
        try await repository.deleteRetentionMessageStates(messageIdentifiers: forgotten)
        return rows
    }

    /// The report rows and recorded states of the bundle's images.
    func imageRows(_ apple: [UUID: ReviewState], uploaded: Set<UUID>, upload: Bool, checkedAt: Int64)
        -> (rows: [Row], states: [RetentionMessageState])
    {
        var rows: [Row] = []
        var states: [RetentionMessageState] = []
        for image in messages.images {
            let state = apple[image.identifier]?.rawValue ?? (upload ? ReviewState.pending.rawValue : "MISSING")
            let action = uploaded.contains(image.identifier) ? "uploaded" : apple[image.identifier] == nil ? "missing" : "unchanged"
            rows.append(Row(messageId: "image " + image.id, locale: image.size, messageIdentifier: image.identifier, state: state,
                            action: action))
            if apple[image.identifier] != nil || upload {
                states.append(RetentionMessageState(
                    messageIdentifier: image.identifier.uuidString.lowercased(), messageId: image.id, locale: image.size,
                    state: state, checkedAt: checkedAt, kind: .image))
            }
        }
        return (rows, states)
    }

    /// What Apple's Upload Message takes for `text`: its header and body, and its image, header
    /// position and bullet points when it has them.
    static func uploadBody(_ text: RetentionMessages.Localized) -> UploadMessageRequestBody {
        UploadMessageRequestBody(
            header: text.header, body: text.body,
            image: text.image.map { UploadMessageImage(imageIdentifier: $0.identifier, altText: $0.altText) },
            headerPosition: text.headerPosition.map(HeaderPosition.init(rawValue:)),
            bulletPoints: text.bulletPoints.isEmpty ? nil : text.bulletPoints.map {
                BulletPoint(text: $0.text, imageIdentifier: $0.image.identifier, altText: $0.image.altText)
            })
    }
}
