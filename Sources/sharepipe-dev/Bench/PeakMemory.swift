import Foundation

/// The process's resident memory, from `/proc/self/status` (Linux).
enum PeakMemory {
    /// Resets the peak (`VmHWM`) to the current resident size, so a later peak measures one workload.
    static func resetHighWaterMark() {
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    }

    /// The peak resident size since the last reset (`VmHWM`).
    static func residentHighWaterMark() -> Int { field("VmHWM:") }

    /// The current resident size (`VmRSS`).
    static func resident() -> Int { field("VmRSS:") }

    private static func field(_ name: String) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name) })
        else { return 0 }
        let kilobytes = line.split(separator: " ").compactMap { Int($0) }.first ?? 0
        return kilobytes * 1024
    }
}
