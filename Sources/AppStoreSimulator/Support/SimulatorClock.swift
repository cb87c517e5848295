import Foundation
import Synchronization

/// The simulator's notion of "now", shared by every part of the simulator (signed dates, expiry,
/// JWT expiry checks, rate-limit windows, notification history).
///
/// By default it follows the system clock; ``advance(by:)`` moves it forward (tests and the control
/// API use this to let a subscription period pass) and ``freeze(at:)`` stops it at a fixed instant
/// so a test sees exactly the same dates on every run.
public final class SimulatorClock: Sendable {
    private enum Mode {
        case system(offset: TimeInterval)
        case frozen(Date)
    }

    private let mode: Mutex<Mode>

    /// A clock that follows the system clock, shifted by `offset` seconds.
    public init(offset: TimeInterval = 0) {
        mode = Mutex(.system(offset: offset))
    }

    /// A clock frozen at `date` until advanced or unfrozen.
    public init(frozenAt date: Date) {
        mode = Mutex(.frozen(date))
    }

    /// The current simulated instant.
    public var now: Date {
        mode.withLock { mode in
            switch mode {
            case .system(let offset): Date().addingTimeInterval(offset)
            case .frozen(let date): date
            }
        }
    }

    /// Whether the clock is frozen (does not move unless advanced).
    public var isFrozen: Bool {
        mode.withLock { if case .frozen = $0 { true } else { false } }
    }

    /// Moves the clock forward (or backward, for a negative interval) by `seconds`.
    public func advance(by seconds: TimeInterval) {
        mode.withLock { mode in
            switch mode {
            case .system(let offset): mode = .system(offset: offset + seconds)
            case .frozen(let date): mode = .frozen(date.addingTimeInterval(seconds))
            }
        }
    }

    /// Stops the clock at `date`.
    public func freeze(at date: Date) {
        mode.withLock { $0 = .frozen(date) }
    }

    /// Lets the clock run again from its current instant, in step with the system clock.
    public func unfreeze() {
        mode.withLock { mode in
            if case .frozen(let date) = mode {
                mode = .system(offset: date.timeIntervalSinceNow)
            }
        }
    }
}
