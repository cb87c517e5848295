import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Signs in to a running console with a token and times its pages, one request at a time (the
/// time from sending the request to the last byte of the page, over loopback).
struct ConsolePageTimer {
    let baseURL: String
    let client: HTTPClient
    private(set) var cookie = ""

    init(baseURL: String, client: HTTPClient) {
        self.baseURL = baseURL
        self.client = client
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Signs in with `token` (the form's CSRF field and cookie first), keeping the session cookie.
    mutating func signIn(token: String) async throws {
        let form = try await client.execute(HTTPClientRequest(url: baseURL + "/console/sign-in"), timeout: .seconds(30))
        let page = String(buffer: try await form.body.collect(upTo: 1 << 20))
        guard let csrf = Self.value(of: "csrf", in: page), let formCookie = Self.cookie(form.headers) else {
            throw Failure(description: "the sign-in form has no CSRF field or cookie")
        }
        var request = HTTPClientRequest(url: baseURL + "/console/sign-in")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "Cookie", value: formCookie)
        let body = "token=\(Self.formEncoded(token))&csrf=\(Self.formEncoded(csrf))"
        request.body = .bytes(ByteBuffer(string: body))
        let answer = try await client.execute(request, timeout: .seconds(30))
        _ = try await answer.body.collect(upTo: 1 << 20)
        guard answer.status == .seeOther || answer.status == .found, let session = Self.cookie(answer.headers) else {
            throw Failure(description: "signing in was refused (\(answer.status.code)): is the token a viewer's or an operator's?")
        }
        cookie = session
    }

    /// The page at `path` `times` times; the latencies in seconds. Fails on a status other than 200.
    func time(_ path: String, times: Int) async throws -> [Double] {
        var samples: [Double] = []
        let clock = ContinuousClock()
        for _ in 0..<times {
            var request = HTTPClientRequest(url: baseURL + path)
            request.headers.add(name: "Cookie", value: cookie)
            let start = clock.now
            let response = try await client.execute(request, timeout: .seconds(60))
            let body = try await response.body.collect(upTo: 64 << 20)
            samples.append((clock.now - start).seconds)
            guard response.status == .ok else {
                throw Failure(description: "\(path) answered \(response.status.code): \(String(buffer: body).prefix(200))")
            }
        }
        return samples
    }

    /// The `name=value` pairs of a response's cookies, joined for a `Cookie` header.
    private static func cookie(_ headers: HTTPHeaders) -> String? {
        let pairs = headers["Set-Cookie"].compactMap { $0.split(separator: ";").first.map(String.init) }
            .filter { !$0.hasSuffix("=") }
        return pairs.isEmpty ? nil : pairs.joined(separator: "; ")
    }

    /// The `value` of the form field `name` in `html`.
    private static func value(of name: String, in html: String) -> String? {
        guard let field = html.range(of: "name=\"\(name)\""),
              let start = html[field.upperBound...].range(of: "value=\""),
              let end = html[start.upperBound...].firstIndex(of: "\"") else { return nil }
        return String(html[start.upperBound..<end])
    }

    private static func formEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }
}
