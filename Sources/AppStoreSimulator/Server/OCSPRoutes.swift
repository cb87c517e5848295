import Foundation
import Hummingbird

/// The simulator's OCSP responder over HTTP, and its control routes.
///
/// - `POST /ocsp` — body: a DER `OCSPRequest` with `Content-Type: application/ocsp-request`
///   (anything else: 415); answer: a DER `OCSPResponse` with `Content-Type:
///   application/ocsp-response` (see ``SimulatorOCSPResponder``), or HTTP 500 with an empty body
///   while the mode is `unavailable`.
/// - `GET  /simulator/pki/ocsp` — `{"mode":"good"|"unavailable", "revoked":["leaf"|"intermediate"…],
///   "answeredRequests":n, "ocspResponderURL":"http://…/ocsp"|null}` (the URL written in the
///   certificates; null when the PKI was issued without one, so nothing asks this responder).
/// - `PUT  /simulator/pki/ocsp` — `{"mode":"good"|"unavailable"}` → the state above.
/// - `POST /simulator/pki/revoke` — `{"certificate":"leaf"|"intermediate"}` → the state above; the
///   responder answers `revoked` for that certificate from now on.
/// - `DELETE /simulator/pki/revoke` — clears every revocation, or only
///   `{"certificate":"leaf"|"intermediate"}` when given → the state above.
///
/// Errors are `{"error":"…"}` with 400, like the other control routes.
struct OCSPRoutes: Sendable {
    /// Answers the requests.
    let responder: SimulatorOCSPResponder

    /// The routes of a responder for `server`'s PKI, on `server`'s clock.
    init(server: SimulatorServer) {
        self.responder = SimulatorOCSPResponder(pki: server.store.pki, clock: server.store.clock)
    }

    func register(on router: Router<SimulatorRequestContext>) {
        router.post("/ocsp") { request, _ in try await answer(request) }
        router.get("/simulator/pki/ocsp") { _, _ in stateResponse() }
        router.put("/simulator/pki/ocsp") { request, _ in
            guard let body = decode(ModeSetting.self, try await request.collectBody()) else {
                return failure("the body must be {\"mode\":\"good\"|\"unavailable\"}")
            }
            responder.mode = body.mode
            return stateResponse()
        }
        router.post("/simulator/pki/revoke") { request, _ in
            guard let body = decode(CertificateSelection.self, try await request.collectBody()) else {
                return failure("the body must be {\"certificate\":\"leaf\"|\"intermediate\"}")
            }
            responder.revoke(body.certificate)
            return stateResponse()
        }
        router.delete("/simulator/pki/revoke") { request, _ in
            let data = try await request.collectBody()
            if data.isEmpty {
                responder.clearRevocation()
            } else {
                guard let body = decode(CertificateSelection.self, data) else {
                    return failure("the body must be empty or {\"certificate\":\"leaf\"|\"intermediate\"}")
                }
                responder.clearRevocation(body.certificate)
            }
            return stateResponse()
        }
    }

    private func answer(_ request: Request) async throws -> Response {
        let contentType = request.headers[.contentType]?.split(separator: ";").first?
            .trimmingCharacters(in: .whitespaces).lowercased()
        guard contentType == "application/ocsp-request" else {
            return Response(status: .unsupportedMediaType)
        }
        guard responder.mode == .good else {
            return Response(status: .internalServerError)
        }
        let body = try await request.body.collect(upTo: 64 * 1024)
        let der = responder.response(to: Array(body.readableBytesView))
        return Response(
            status: .ok, headers: [.contentType: "application/ocsp-response"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: der)))
    }

    // MARK: - Control messages

    private struct ModeSetting: Decodable {
        let mode: SimulatorOCSPResponder.Mode
    }

    private struct CertificateSelection: Decodable {
        let certificate: SimulatorOCSPResponder.CertificateRole
    }

    private struct State: Encodable {
        let mode: SimulatorOCSPResponder.Mode
        let revoked: [SimulatorOCSPResponder.CertificateRole]
        let answeredRequests: Int
        let ocspResponderURL: String?
    }

    private func stateResponse() -> Response {
        JSONResponse.make(State(
            mode: responder.mode, revoked: responder.revokedCertificates,
            answeredRequests: responder.answeredRequests, ocspResponderURL: responder.configuredResponderURL))
    }

    private func decode<Body: Decodable>(_ type: Body.Type, _ data: Data) -> Body? {
        try? JSONDecoder().decode(type, from: data)
    }

    private func failure(_ message: String) -> Response {
        JSONResponse.make(status: 400, ControlMessages.Failure(error: message))
    }
}
