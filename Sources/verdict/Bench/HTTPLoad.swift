import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// POSTs prepared JSON bodies to one URL from `concurrency` keep-alive connections, timing every
/// request from send (or, paced, from when it was due) to the last byte of the answer.
///
/// Each connection runs on its SwiftNIO event loop with one request in flight: when an answer
/// ends, the next unsent body goes out from the same loop. No task hops, no connection pool —
/// the load generator shares the machine with the service it measures, so it should cost as
/// little as it can.
struct HTTPLoad {
    let host: String
    let port: Int
    let path: String
    let concurrency: Int
    /// Per request: a request without an answer by then fails its connection.
    var timeout: TimeAmount = .seconds(30)
    /// Requests per second (open loop): body `i` is sent no earlier than `i / rate` seconds after
    /// the start, and its latency counts from then — a request sent late because every
    /// connection was busy counts its wait. Nil: each connection sends as fast as it is answered.
    var rate: Double?

    /// `url` must be an absolute `http://` URL.
    init?(url: String, concurrency: Int) {
        guard let components = URLComponents(string: url), components.scheme == "http", let host = components.host else {
            return nil
        }
        self.host = host
        self.port = components.port ?? 80
        self.path = (components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath)
            + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
        self.concurrency = concurrency
    }

    /// What a run produced.
    struct Result {
        /// Latency of every request (answered or not), in seconds.
        var latencies: [Double] = []
        /// Requests by outcome: the HTTP status code ("200", "503") or "transport error".
        var outcomes: [String: Int] = [:]
        /// Requests answered with a 2xx status.
        var succeeded = 0
        /// Up to five distinct failure descriptions, for the report.
        var failureSamples: [String] = []
        /// Wall time of the whole run, in seconds.
        var seconds: Double = 0

        var failed: Int { latencies.count - succeeded }

        mutating func record(_ outcome: String, latency: Double, failure: String?) {
            latencies.append(latency)
            outcomes[outcome, default: 0] += 1
            if failure == nil { succeeded += 1 }
            if let failure, failureSamples.count < 5, !failureSamples.contains(failure) { failureSamples.append(failure) }
        }

        mutating func merge(_ other: Result) {
            latencies += other.latencies
            outcomes.merge(other.outcomes, uniquingKeysWith: +)
            succeeded += other.succeeded
            for sample in other.failureSamples where failureSamples.count < 5 && !failureSamples.contains(sample) {
                failureSamples.append(sample)
            }
        }
    }

    /// Sends every body once; connections take the next unsent body until none is left. A
    /// connection that cannot be opened, or breaks, counts its current request as a transport
    /// error and is opened again for the next body.
    func run(bodies: [ByteBuffer]) async -> Result {
        let next = NextIndex()
        let clock = NIODeadline.now()
        let schedule = rate.map { Schedule(start: clock, interval: .nanoseconds(Int64(1e9 / $0))) }
        let group = MultiThreadedEventLoopGroup.singleton
        var total = await withTaskGroup(of: Result.self) { tasks in
            for _ in 0..<concurrency {
                tasks.addTask {
                    var result = Result()
                    while next.peek() < bodies.count {
                        result.merge(await connectionRun(bodies: bodies, next: next, schedule: schedule, group: group))
                    }
                    return result
                }
            }
            var total = Result()
            for await result in tasks { total.merge(result) }
            return total
        }
        total.seconds = Double((NIODeadline.now() - clock).nanoseconds) / 1e9
        return total
    }

    /// One connection's share of the run, until the bodies run out or the connection breaks.
    private func connectionRun(bodies: [ByteBuffer], next: NextIndex, schedule: Schedule?, group: any EventLoopGroup) async -> Result {
        let loop = group.next()
        let done = loop.makePromise(of: Result.self)
        var head = HTTPRequestHead(version: .http1_1, method: .POST, uri: path)
        head.headers.add(name: "Host", value: port == 80 ? host : "\(host):\(port)")
        head.headers.add(name: "Content-Type", value: "application/json")
        let template = head
        // TCP_NODELAY is NIO's default for client channels. (`.socketOption(.tcp_nodelay)` would set
        // option 1 at SOL_SOCKET level, i.e. SO_DEBUG: refused without CAP_NET_ADMIN in a container.)
        let connect = ClientBootstrap(group: loop)
            .connectTimeout(.seconds(5))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(
                        LoadConnectionHandler(
                            bodies: bodies, next: next, schedule: schedule, head: template, timeout: timeout, done: done))
                }
            }
            .connect(host: host, port: port)
        connect.whenFailure { error in
            // Nothing was sent: count one body as failed so a dead service ends the run.
            var result = Result()
            if next.take() < bodies.count { result.record("transport error", latency: 0, failure: "transport error: \(error)") }
            done.succeed(result)
        }
        return (try? await done.futureResult.get()) ?? Result()
    }
}

/// When each body of a paced run is due.
struct Schedule: Sendable {
    let start: NIODeadline
    let interval: TimeAmount

    func due(_ index: Int) -> NIODeadline { start + interval * index }
}

/// Sends a body, reads its answer, sends the next (paced: when it is due): one request in flight
/// on one connection.
private final class LoadConnectionHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    let bodies: [ByteBuffer]
    let next: NextIndex
    let schedule: Schedule?
    let head: HTTPRequestHead
    let timeout: TimeAmount
    let done: EventLoopPromise<HTTPLoad.Result>
    private var result = HTTPLoad.Result()
    private var started: NIODeadline?
    private var status = 0
    private var answer = ByteBuffer()
    private var deadline: Scheduled<Void>?
    private var finished = false

    init(bodies: [ByteBuffer], next: NextIndex, schedule: Schedule?, head: HTTPRequestHead, timeout: TimeAmount,
         done: EventLoopPromise<HTTPLoad.Result>) {
        self.bodies = bodies
        self.next = next
        self.schedule = schedule
        self.head = head
        self.timeout = timeout
        self.done = done
    }

    func channelActive(context: ChannelHandlerContext) {
        sendNext(context: context)
    }

    private func sendNext(context: ChannelHandlerContext) {
        let index = next.take()
        guard index < bodies.count else { return finish(context: context) }
        guard let due = schedule?.due(index), due > .now() else {
            return send(index, context: context, due: schedule?.due(index))
        }
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        context.eventLoop.scheduleTask(deadline: due) {
            let (handler, context) = loopBound.value
            handler.send(index, context: context, due: due)
        }
    }

    /// Sends body `index` now; its latency counts from `due` when given (a paced run).
    private func send(_ index: Int, context: ChannelHandlerContext, due: NIODeadline?) {
        var head = self.head
        head.headers.add(name: "Content-Length", value: String(bodies[index].readableBytes))
        started = due ?? .now()
        status = 0
        answer.clear()
        let channel = context.channel
        deadline = context.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(bodies[index]))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            status = Int(head.status.code)
        case .body(var part):
            if answer.readableBytes < 4096 { answer.writeBuffer(&part) }
        case .end:
            deadline?.cancel()
            let latency = started.map { Double((NIODeadline.now() - $0).nanoseconds) / 1e9 } ?? 0
            started = nil
            let failure = (200..<300).contains(status)
                ? nil : "\(status): \(String(buffer: answer).prefix(300))"
            result.record(String(status), latency: latency, failure: failure)
            sendNext(context: context)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let started {
            // The connection broke (or timed out) with a request in flight.
            deadline?.cancel()
            let latency = Double((NIODeadline.now() - started).nanoseconds) / 1e9
            result.record("transport error", latency: latency, failure: "transport error: the connection closed before the answer")
            self.started = nil
        }
        finish(context: context)
    }

    private func finish(context: ChannelHandlerContext) {
        guard !finished else { return }
        finished = true
        done.succeed(result)
        context.close(promise: nil)
    }
}

/// The index of the next body to send, shared by the connections.
final class NextIndex: Sendable {
    private let value = Atomic<Int>(0)

    func take() -> Int {
        value.wrappingAdd(1, ordering: .relaxed).oldValue
    }

    func peek() -> Int {
        value.load(ordering: .relaxed)
    }
}
