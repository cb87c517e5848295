import NIOCore
import NIOPosix
import Synchronization

/// A TCP forwarder on 127.0.0.1 that a test can cut (every connection dropped, new ones refused)
/// and restore, to make a database server unreachable and reachable again. With several target
/// ports it is a round-robin balancer without health checks (each new connection goes to the next
/// port, alive or not), as in front of two `verdict serve` processes.
final class TCPProxy: Sendable {
    private struct State {
        var server: Channel?
        var connections: [Channel] = []
        var open = true
        var targetPorts: [Int]
        var next = 0
    }

    private let targetHost: String
    private let group = MultiThreadedEventLoopGroup.singleton
    private let state: Mutex<State>

    convenience init(targetHost: String, targetPort: Int) async throws {
        try await self.init(targetHost: targetHost, targetPorts: [targetPort])
    }

    init(targetHost: String, targetPorts: [Int]) async throws {
        self.targetHost = targetHost
        state = Mutex(State(targetPorts: targetPorts))
        let server = try await bind(port: 0)
        state.withLock { $0.server = server }
    }

    /// Sends new connections to `ports` from now on (connections already open stay where they are).
    func setTargetPorts(_ ports: [Int]) {
        state.withLock { $0.targetPorts = ports }
    }

    private func nextTargetPort() -> Int {
        state.withLock { state in
            defer { state.next += 1 }
            return state.targetPorts[state.next % max(state.targetPorts.count, 1)]
        }
    }

    /// The port to connect to.
    var port: Int { state.withLock { $0.server?.localAddress?.port ?? 0 } }

    private func bind(port: Int) async throws -> Channel {
        let targetHost = targetHost, group = group
        return try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { [self] inbound in
                // The check and the registration are one step under the lock, and so are the
                // outbound side's: a connection accepted or connected while `cut()` runs is either
                // in the list `cut()` closes or sees `open == false` and closes itself.
                guard admit(inbound) else { return inbound.close() }
                return ClientBootstrap(group: group).connect(host: targetHost, port: nextTargetPort()).flatMap { outbound in
                    guard self.admit(outbound) else {
                        outbound.close(promise: nil)
                        return inbound.close()
                    }
                    // Either side's end closes the other (also when the client left while the target connected).
                    inbound.closeFuture.whenComplete { _ in outbound.close(promise: nil) }
                    return inbound.pipeline.addHandler(Glue(peer: outbound)).flatMap {
                        outbound.pipeline.addHandler(Glue(peer: inbound))
                    }
                }
            }
            .bind(host: "127.0.0.1", port: port).get()
    }

    /// Registers a channel for the next `cut()` if the proxy is open; whether it is.
    private func admit(_ channel: Channel) -> Bool {
        state.withLock { state in
            guard state.open else { return false }
            state.connections.append(channel)
            return true
        }
    }

    /// Drops every forwarded connection and refuses new ones.
    func cut() async {
        let channels = state.withLock { state -> [Channel] in
            state.open = false
            defer { state.connections = [] }
            return state.connections
        }
        for channel in channels { try? await channel.close() }
    }

    /// Forwards new connections again.
    func restore() {
        state.withLock { $0.open = true }
    }

    func stop() async {
        await cut()
        let server = state.withLock { $0.server }
        try? await server?.close()
    }
}

/// Copies bytes to the peer channel and closes it when this side closes.
private final class Glue: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    let peer: Channel
    init(peer: Channel) { self.peer = peer }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        peer.writeAndFlush(unwrapInboundIn(data), promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        peer.close(promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
