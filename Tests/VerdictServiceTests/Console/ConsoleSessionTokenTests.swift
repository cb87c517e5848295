import Foundation
import HTTPTypes
import Testing
import VerdictTestSupport

/// A console session follows the token it was opened with: after a restart with an edited token
/// list, a token given fewer apps or a lesser role narrows its open sessions, and a removed token
/// (or one demoted to the `app` role) ends them — for good, even when the token comes back.
@Suite("Console: a session follows its token")
struct ConsoleSessionTokenTests {
    typealias Harness = TwoAppRouterHarness
    typealias Console = ConsoleSeveralAppsTests

    @Test(arguments: TestBackend.selected)
    func editedTokensNarrowOrEndOpenSessions(_ backend: TestBackend) async throws {
        try await Harness.with(backend) { harness in
            let both = try await Console.signIn(harness, Harness.tokenAB)
            let onlyA = try await Console.signIn(harness, Harness.tokenA)
            let onlyB = try await Console.signIn(harness, Harness.tokenB)
            let pageOf: @Sendable (String) -> String = { app in "/console/decisions?app=\(app)" }
            for app in [Harness.a, Harness.b] { #expect(try await Console.get(harness, pageOf(app), both.cookie).status == 200) }
            #expect(try await Console.get(harness, "/console/decisions", onlyA.cookie).status == 200)
            #expect(try await Console.get(harness, "/console/decisions", onlyB.cookie).status == 200)

            #expect(try await Console.get(harness, pageOf(Harness.a), both.cookie).html.contains(#"<span class="role" title="Signed in as">operator</span>"#))

            // Restarted: the both-apps token is now a viewer of A only, A's token is gone, B's is an app's.
            let tokens = """
                [{"token": "\(Harness.tokenAB)", "role": "viewer", "apps": ["\(Harness.a)"]},
                 {"token": "\(Harness.tokenB)", "role": "app", "apps": ["\(Harness.b)"]}]
                """
            try await harness.restarted(apiTokens: tokens) { restarted in
                let page = try await Console.get(restarted, pageOf(Harness.a), both.cookie)
                #expect(page.status == 200)
                #expect(page.html.contains(#"<span class="role" title="Signed in as">viewer</span>"#))
                #expect(try await Console.get(restarted, pageOf(Harness.b), both.cookie).status == 404)
                for ended in [onlyA, onlyB] {
                    let page = try await Console.get(restarted, "/console/decisions", ended.cookie)
                    #expect(page.status == 303)
                    #expect(page.location?.hasPrefix("/console/sign-in") == true, "\(page.location ?? "")")
                }
            }
            // Such a session is ended, not only refused: the token given back, it stays signed out.
            for ended in [onlyA, onlyB] {
                #expect(try await Console.get(harness, "/console/decisions", ended.cookie).status == 303)
            }
        }
    }
}
