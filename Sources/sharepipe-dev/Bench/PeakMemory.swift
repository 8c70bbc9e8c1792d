import Foundation

/// A process's resident memory, from `/proc/PID/status` (Linux).
enum PeakMemory {
    /// Resets the peak (`VmHWM`) to the current resident size, so a later peak measures one workload.
    static func resetHighWaterMark() {
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    }

    /// The peak resident size since the last reset (`VmHWM`).
    static func residentHighWaterMark() -> Int { field("VmHWM:") }

    /// The current resident size (`VmRSS`).
    static func resident() -> Int { field("VmRSS:") }

    /// The current resident size of process `pid` (`VmRSS`); 0 when it cannot be read.
    static func resident(of pid: Int32) -> Int { field("VmRSS:", of: "\(pid)") }

    private static func field(_ name: String, of process: String = "self") -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(process)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name) })
        else { return 0 }
        let kilobytes = line.split(separator: " ").compactMap { Int($0) }.first ?? 0
        return kilobytes * 1024
    }
}
