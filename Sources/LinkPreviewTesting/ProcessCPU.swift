import Foundation

/// CPU time (user + system) a process has used, from `/proc/PID/stat`: for a benchmark, whether a run
/// kept the cores busy; for a test, that a process waiting spends no CPU.
public enum ProcessCPU {
    /// Seconds of CPU `pid` (default: this process) has used; 0 where `/proc` is missing.
    public static func seconds(pid: Int32? = nil) -> Double {
        let path = "/proc/\(pid.map(String.init) ?? "self")/stat"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return 0 }
        // Fields after the command name: state is field 3; utime and stime are fields 14 and 15.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
