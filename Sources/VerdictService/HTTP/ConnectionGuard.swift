import HTTPTypes
import NIOCore
import NIOHTTPTypes
import Synchronization

/// The HTTP edge on each connection, before Hummingbird sees a request: a client has
/// ``ServiceConfiguration/httpRequestTimeout`` to send a whole request (headers and body) from
/// the moment the connection opens or the previous answer ends — a slow or silent client is cut
/// off — and beyond ``ServiceConfiguration/httpMaxConnections`` open connections, a request is
/// answered `503 TOO_MANY_CONNECTIONS` (with `Retry-After`) and its connection closed, without
/// reaching the router.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// The connections open now, shared by every connection of a server.
    final class Census: Sendable {
        let limit: Int
        private let open = Atomic<Int>(0)

        init(limit: Int) { self.limit = limit }

        /// Counts a new connection; whether it is within the limit.
        func admit() -> Bool { open.wrappingAdd(1, ordering: .relaxed).newValue <= limit }
        func leave() { open.wrappingSubtract(1, ordering: .relaxed) }
        var count: Int { open.load(ordering: .relaxed) }
    }

    private let census: Census
    private let timeout: TimeAmount
    private var admitted = false
    private var counted = false
    private var refusing = false
    private var deadline: Scheduled<Void>?

    init(census: Census, timeout: TimeAmount) {
        self.census = census
        self.timeout = timeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        counted = true
        admitted = census.admit()
        if context.channel.isActive { arm(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        if deadline == nil { arm(context) }
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        if counted {
            counted = false
            census.leave()
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        if case .end = part { disarm() }
        guard admitted else {
            if case .head = part, !refusing { refuse(context) }
            return
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            // The answer is done: the client's next request must arrive within the timeout.
            let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            let done = promise ?? context.eventLoop.makePromise()
            done.futureResult.whenSuccess { _ in
                let (handler, context) = loopBound.value
                handler.arm(context)
            }
            context.write(data, promise: done)
            return
        }
        context.write(data, promise: promise)
    }

    private func arm(_ context: ChannelHandlerContext) {
        deadline?.cancel()
        let channel = context.channel
        deadline = context.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
    }

    private func disarm() {
        deadline?.cancel()
        deadline = nil
    }

    private func refuse(_ context: ChannelHandlerContext) {
        refusing = true
        disarm()
        let body = ByteBuffer(string: #"{"error":{"code":"TOO_MANY_CONNECTIONS","message":"the service has \#(census.limit) connections open; retry shortly"}}"#)
        var head = HTTPResponse(status: .serviceUnavailable)
        head.headerFields[.contentType] = "application/json"
        head.headerFields[.contentLength] = String(body.readableBytes)
        head.headerFields[.retryAfter] = "1"
        head.headerFields[.connection] = "close"
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}
