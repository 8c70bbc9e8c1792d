import Foundation
import SharePipeProtocol
import Synchronization

/// Decides when a device's use is written down: at most once every
/// ``SharePipeProtocol/Device/lastUseResolution`` (five minutes) per device and server process, so
/// signing a request in adds a write to almost none of them. The figure a device shows is that coarse;
/// a process stopped loses at most that much of it.
final class DeviceUseRecorder: Sendable {
    private let recorded = Mutex<[UUID: ContinuousClock.Instant]>([:])
    let interval: Duration

    init(interval: Duration = .seconds(Device.lastUseResolution)) {
        self.interval = interval
    }

    /// The devices remembered before the oldest are forgotten (the next use of one is written again).
    static let capacity = 100_000

    /// Whether the use of `deviceID` now should be written (and, if so, remembers that it was).
    func shouldRecord(_ deviceID: UUID, now: ContinuousClock.Instant = .now) -> Bool {
        recorded.withLock { recorded in
            if let last = recorded[deviceID], now - last < interval { return false }
            if recorded.count >= Self.capacity {
                recorded = recorded.filter { now - $0.value < interval }
            }
            recorded[deviceID] = now
            return true
        }
    }
}
