import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// The HTTP edge on each connection, before Hummingbird sees a request.
///
/// - Time: a new connection has ``ServiceConfiguration/httpFirstRequestTimeout`` to send its
///   first whole request (headers and body), and a connection that was answered has
///   ``ServiceConfiguration/httpRequestTimeout`` from the end of the answer to send the next one:
///   a silent, slow or idle client is cut off.
/// - Places: each connection takes a place in the server's ``ConnectionCensus``
///   (``ServiceConfiguration/httpMaxConnections``). When every place is taken, the connection idle
///   for the longest gives up its place (and is closed); only when every place holds a request in
///   progress is a request answered `503 TOO_MANY_CONNECTIONS` (with `Retry-After`) and its
///   connection closed, without reaching the router.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let census: ConnectionCensus
    private let firstRequestTimeout: TimeAmount
    private let requestTimeout: TimeAmount
    private let ticket: ConnectionCensus.Ticket
    /// Requests whose head arrived and whose answer has not ended (more than one when pipelined).
    private var inProgress = 0
    private var refusing = false
    private var deadline: Scheduled<Void>?

    init(census: ConnectionCensus, firstRequestTimeout: TimeAmount, requestTimeout: TimeAmount) {
        self.census = census
        self.firstRequestTimeout = firstRequestTimeout
        self.requestTimeout = requestTimeout
        ticket = census.ticket()
    }

    func handlerAdded(context: ChannelHandlerContext) {
        _ = census.seat(ticket, channel: context.channel, busy: false)
        if context.channel.isActive { arm(context, firstRequestTimeout, reason: "first_request_timeout") }
    }

    func channelActive(context: ChannelHandlerContext) {
        if deadline == nil { arm(context, firstRequestTimeout, reason: "first_request_timeout") }
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        census.leave(ticket)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refusing else { return }
        switch unwrapInboundIn(data) {
        case .head:
            // A request begins: it needs a place (a connection that had none, or lost its idle
            // one, asks again; an idle connection elsewhere may give up its place).
            guard census.seat(ticket, channel: context.channel, busy: true) else { return refuse(context) }
            inProgress += 1
        case .body:
            break
        case .end:
            disarm()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .end = unwrapOutboundIn(data) else { return context.write(data, promise: promise) }
        // The answer is done: once it is written the connection is idle (unless a pipelined
        // request is waiting) and its next request must arrive within the timeout.
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        let done = promise ?? context.eventLoop.makePromise()
        done.futureResult.whenSuccess { _ in
            let (handler, context) = loopBound.value
            handler.answered(context)
        }
        context.write(data, promise: done)
    }

    private func answered(_ context: ChannelHandlerContext) {
        inProgress = max(inProgress - 1, 0)
        guard inProgress == 0 else { return }
        census.idle(ticket)
        arm(context, requestTimeout, reason: "request_timeout")
    }

    private func arm(_ context: ChannelHandlerContext, _ timeout: TimeAmount, reason: String) {
        deadline?.cancel()
        let channel = context.channel, census = census
        deadline = context.eventLoop.scheduleTask(in: timeout) {
            census.closed(reason)
            channel.close(promise: nil)
        }
    }

    private func disarm() {
        deadline?.cancel()
        deadline = nil
    }

    private func refuse(_ context: ChannelHandlerContext) {
        refusing = true
        disarm()
        census.closed("too_many_connections")
        let body = ByteBuffer(string: #"{"error":{"code":"TOO_MANY_CONNECTIONS","message":"the service has \#(census.limit) connections with a request in progress; retry shortly"}}"#)
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
