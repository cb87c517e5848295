import NIOCore
import Synchronization

/// The places a server has for open connections, shared by every connection's
/// ``ConnectionGuard``: at most `limit` connections hold one at a time.
///
/// A connection is *idle* while it has no request in progress: from the moment it opens until
/// its first request's head arrives, and between an answer and the next request. When a new
/// connection finds every place taken, the connection idle for the longest is closed and its place
/// given to the newcomer; a connection is refused a place only when every place is held by a
/// connection with a request in progress. So connections that send nothing (a client holding
/// sockets open, a scanner) can fill the places but never keep a real client out, and a client is
/// refused only when the service is busy with that many requests.
final class ConnectionCensus: Sendable {
    /// One connection's entry.
    struct Ticket: Hashable, Sendable {
        fileprivate let id: UInt64
    }

    private struct Place {
        let channel: any Channel
        /// When the connection last became idle (a sequence number, smaller is older); nil while a
        /// request is in progress.
        var idleSince: UInt64?
    }

    private struct State {
        var places: [UInt64: Place] = [:]
        var clock: UInt64 = 0
    }

    let limit: Int
    /// Told why the edge closed a connection: `idle_shed`, `too_many_connections`,
    /// `first_request_timeout` or `request_timeout` (a metric).
    let closed: @Sendable (_ reason: String) -> Void
    private let state = Mutex(State())
    private let nextTicket = Atomic<UInt64>(0)

    init(limit: Int, closed: @escaping @Sendable (_ reason: String) -> Void = { _ in }) {
        self.limit = max(limit, 1)
        self.closed = closed
    }

    /// A ticket for a connection that has just opened.
    func ticket() -> Ticket {
        Ticket(id: nextTicket.wrappingAdd(1, ordering: .relaxed).oldValue)
    }

    /// Gives the connection a place, as an idle connection (`busy: false`, on opening) or with
    /// a request in progress (a connection that had no place and has now sent a request): a free
    /// place, or the place of the connection idle for the longest, which is closed. Whether it
    /// got one. A connection that holds a place keeps it (and is marked busy or idle as asked).
    func seat(_ ticket: Ticket, channel: any Channel, busy: Bool) -> Bool {
        let (seated, evicted) = state.withLock { state -> (Bool, (any Channel)?) in
            state.clock += 1
            let idleSince = busy ? nil : state.clock
            if state.places[ticket.id] != nil {
                state.places[ticket.id]?.idleSince = idleSince
                return (true, nil)
            }
            var evicted: (any Channel)?
            if state.places.count >= limit {
                // The longest-idle connection (a linear scan: it runs only when every place is taken).
                var oldest: (id: UInt64, since: UInt64)?
                for (id, place) in state.places {
                    if let since = place.idleSince, since < oldest?.since ?? .max { oldest = (id, since) }
                }
                guard let oldest else { return (false, nil) }
                evicted = state.places.removeValue(forKey: oldest.id)?.channel
            }
            state.places[ticket.id] = Place(channel: channel, idleSince: idleSince)
            return (true, evicted)
        }
        if let evicted {
            evicted.close(promise: nil)
            closed("idle_shed")
        }
        return seated
    }

    /// Marks a connection that holds a place as idle (its answer is sent).
    func idle(_ ticket: Ticket) {
        state.withLock { state in
            guard state.places[ticket.id] != nil else { return }
            state.clock += 1
            state.places[ticket.id]?.idleSince = state.clock
        }
    }

    /// Frees the connection's place, if it holds one (it closed).
    func leave(_ ticket: Ticket) {
        _ = state.withLock { $0.places.removeValue(forKey: ticket.id) }
    }
}
