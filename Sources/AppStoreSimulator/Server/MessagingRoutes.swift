import AppStoreServer
import AppStoreServerHTTP
import Foundation
import Hummingbird

/// The Retention Messaging API's management endpoints: messages, images, default messages,
/// realtime URL.
extension APIRoutes {
    func uploadMessage(_ request: Request, _ context: SimulatorRequestContext) async throws -> Response {
        let identifier = try messageIdentifier(context)
        let body = try await decode(UploadMessageRequestBody.self, request)
        try await messaging { try await store.uploadMessage(identifier, body) }
        return Response(status: .ok)
    }

    func deleteMessage(_ request: Request, _ context: SimulatorRequestContext) async throws -> Response {
        let identifier = try messageIdentifier(context)
        try await messaging { try await store.deleteMessage(identifier) }
        return Response(status: .ok)
    }

    func getMessageList(_ request: Request, _ context: SimulatorRequestContext) async throws -> Response {
        JSONResponse.make(await store.messageList())
    }

    /// `PUT /inApps/v1/messaging/image/{imageIdentifier}?imageSize=…`: the raw PNG (any
    /// `Content-Type`), up to ``imageBodyLimit`` bytes; `imageSize` absent means `FULL_SIZE`.
    func uploadImage(_ request: Request, _ context: SimulatorRequestContext) async throws -> Response {
        let identifier = try pathUUID(context, "imageIdentifier")
        let size = request.uri.queryParameters.get("imageSize").map(ImageSize.init(rawValue:)) ?? .fullSize
        guard let png = try? await request.body.collect(upTo: Self.imageBodyLimit) else { throw APIErrorResponse.invalidImage }
        try await messaging { try await store.uploadImage(identifier, png: Data(png.readableBytesView), size: size) }
        return Response(status: .ok)
    }

    func deleteImage(_ request: Request, _ context: SimulatorRequestContext) async throws -> Response {
        let identifier = try pathUUID(context, "imageIdentifier")
        try await messaging { try await store.deleteImage(identifier) }
        return Response(status: .ok)
    }

    func getImageList(_ request: Request, _ context: SimulatorRequestContext) async throws -> Response {
        JSONResponse.make(await store.imageList())
    }

    func configureDefaultMessage(_ request: Request, _ context: SimulatorRequestContext) async throws -> Response {
        let (product, locale) = try defaultPath(context)
        let body = try await decode(DefaultConfigurationRequest.self, request)
        try await messaging { try await store.configureDefaultMessage(productId: product, locale: locale, body.messageIdentifier) }
        return Response(status: .ok)
    }

    func getDefaultMessage(_ request: Request, _ context: SimulatorRequestContext) async throws -> Response {
        let (product, locale) = try defaultPath(context)
        let identifier = try await messaging { try await store.defaultMessage(productId: product, locale: locale) }
        return JSONResponse.make(DefaultConfigurationRequest(messageIdentifier: identifier))
    }

    func deleteDefaultMessage(_ request: Request, _ context: SimulatorRequestContext) async throws -> Response {
        let (product, locale) = try defaultPath(context)
        try await messaging { try await store.deleteDefaultMessage(productId: product, locale: locale) }
        return Response(status: .ok)
    }

    func configureRealtimeURL(_ request: Request, _ context: SimulatorRequestContext) async throws -> Response {
        let body = try await decode(RealtimeURLBody.self, request)
        try await messaging { try await store.setRealtimeURL(body.realtimeURL) }
        return Response(status: .ok)
    }

    func getRealtimeURL(_ request: Request, _ context: SimulatorRequestContext) async throws -> Response {
        guard let url = await store.realtimeURL() else { throw APIErrorResponse.realtimeURLNotFound }
        return JSONResponse.make(RealtimeURLBody(realtimeURL: url))
    }

    func deleteRealtimeURL(_ request: Request, _ context: SimulatorRequestContext) async throws -> Response {
        try await messaging { try await store.deleteRealtimeURL() }
        return Response(status: .ok)
    }

    /// `POST /inApps/v1/messaging/performanceTest`: starts the run in the background.
    func initiatePerformanceTest(_ request: Request, _ context: SimulatorRequestContext) async throws -> Response {
        let body = try await decode(PerformanceTestRequest.self, request)
        let (id, test) = try await messaging { try await store.startPerformanceTest(originalTransactionId: body.originalTransactionId) }
        let runner = PerformanceTestRunner(store: store, httpClient: .untraced)
        Task { await runner.run(id: id, test: test) }
        return JSONResponse.make(PerformanceTestResponse(config: test.config, requestId: id))
    }

    /// `GET /inApps/v1/messaging/performanceTest/result/{requestId}`.
    func getPerformanceTestResult(_ request: Request, _ context: SimulatorRequestContext) async throws -> Response {
        guard let id = context.parameters.get("requestId"), let result = await store.performanceTestResult(id: id) else {
            throw APIErrorResponse(status: 404, errorCode: nil, errorMessage: nil)
        }
        return JSONResponse.make(result)
    }

    // MARK: - Helpers

    /// The largest image body read (a 3840 × 2160 RGB PNG stored without compression is ~25 MB).
    static let imageBodyLimit = 32 << 20

    private func messageIdentifier(_ context: SimulatorRequestContext) throws -> UUID {
        try pathUUID(context, "messageIdentifier")
    }

    private func pathUUID(_ context: SimulatorRequestContext, _ name: String) throws -> UUID {
        guard let text = context.parameters.get(name), let uuid = UUID(uuidString: text) else {
            throw APIErrorResponse.generalBadRequest
        }
        return uuid
    }

    private func defaultPath(_ context: SimulatorRequestContext) throws -> (String, String) {
        guard let product = context.parameters.get("productId"), !product.isEmpty,
              let locale = context.parameters.get("locale")
        else { throw APIErrorResponse.generalBadRequest }
        guard RetentionLocale.isValid(locale) else { throw APIErrorResponse.invalidLocale }
        return (product, locale)
    }

    /// The body decoded as `T` (400 when it is not).
    private func decode<T: Decodable>(_ type: T.Type, _ request: Request) async throws -> T {
        let data = try await request.collectBody()
        guard let decoded = try? AppStoreJSON.decoder().decode(T.self, from: data) else { throw APIErrorResponse.generalBadRequest }
        return decoded
    }

    /// Runs a store operation, answering Apple's error for its failure.
    private func messaging<T>(_ operation: () async throws -> T) async throws -> T {
        do {
            return try await operation()
        } catch let error as SimulatorStore.MessagingError {
            switch error {
            case .invalidMessage: throw APIErrorResponse.generalBadRequest
            case .messageExists: throw APIErrorResponse.messageAlreadyExists
            case .messageNotFound: throw APIErrorResponse.messageNotFound
            case .messageNotApproved: throw APIErrorResponse.messageNotApproved
            case .defaultMessageNotFound: throw APIErrorResponse.defaultMessageNotFound
            case .realtimeURLNotFound: throw APIErrorResponse.realtimeURLNotFound
            case .invalidRealtimeURL: throw APIErrorResponse.invalidRealtimeURL
            case .invalidLocale: throw APIErrorResponse.invalidLocale
            // Apple: 404 when the account has no access; the test exists in Sandbox only.
            case .performanceTestSandboxOnly: throw APIErrorResponse(status: 404, errorCode: nil, errorMessage: nil)
            case .notAnOriginalTransactionId: throw APIErrorResponse.transactionIdNotOriginal
            case .performanceTestRunning: throw APIErrorResponse.performanceTestRunning
            case .imageExists: throw APIErrorResponse.imageAlreadyExists
            case .imageNotFound: throw APIErrorResponse.imageNotFound
            case .imageInUse: throw APIErrorResponse.imageInUse
            case .imageNotApproved: throw APIErrorResponse.imageNotApproved
            case .invalidImage: throw APIErrorResponse.invalidImage
            case .invalidImageSize: throw APIErrorResponse.badRequestImageSize
            case .maximumImagesReached: throw APIErrorResponse.maximumNumberOfImagesReached
            case .altTextTooLong: throw APIErrorResponse.altTextTooLong
            case .tooManyBulletPoints: throw APIErrorResponse.tooManyBulletPoints
            case .bulletPointTextTooLong: throw APIErrorResponse.bulletPointTextTooLong
            case .aboveImageRequiresAnImage: throw APIErrorResponse.aboveImageRequiresAnImage
            }
        }
    }
}
