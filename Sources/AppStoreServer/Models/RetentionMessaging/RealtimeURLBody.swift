/// Configure / Get Realtime URL (`PUT`/`GET /inApps/v1/messaging/realtime/url`): where the App
/// Store sends realtime requests. `https://` only, at most 256 characters.
public struct RealtimeURLBody: Codable, Hashable, Sendable {
    public var realtimeURL: String

    public init(realtimeURL: String) {
        self.realtimeURL = realtimeURL
    }
}
