import Hummingbird

/// The request context of the simulator's router: Hummingbird's core context plus a way to close
/// the connection without answering (the dropped-connection fault).
public struct SimulatorRequestContext: RequestContext {
    /// Hummingbird's per-request storage.
    public var coreContext: CoreRequestContextStorage
    /// Closes the connection the request arrived on.
    let closeConnection: @Sendable () -> Void

    /// Creates the context for a request arriving on `source.channel`.
    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        let channel = source.channel
        self.closeConnection = { channel.close(promise: nil) }
    }
}
