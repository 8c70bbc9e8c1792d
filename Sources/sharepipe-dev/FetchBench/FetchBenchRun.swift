import Foundation
import LinkPreviewTesting

/// The figures of one workload run at one concurrency: throughput and latency percentiles.
struct FetchBenchRun {
    var requests: Int
    var seconds: Double
    var latenciesMilliseconds: [Double]
    var failures: Int
    /// CPU time (user + system) this process and the server used during the run.
    var clientCPUSeconds: Double
    var serverCPUSeconds: Double

    var perSecond: Double { Double(requests) / seconds }
    var p50: Double { Self.percentile(latenciesMilliseconds, 0.50) }
    var p99: Double { Self.percentile(latenciesMilliseconds, 0.99) }
    /// Microseconds of CPU per request, this process's and the server's.
    var clientMicroseconds: Double { clientCPUSeconds / Double(requests) * 1e6 }
    var serverMicroseconds: Double { serverCPUSeconds / Double(requests) * 1e6 }
    /// The share of `cores` the two processes kept busy.
    func busy(cores: Int) -> Double { (clientCPUSeconds + serverCPUSeconds) / seconds / Double(cores) }

    static func percentile(_ values: [Double], _ p: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
    }

    /// Runs `work(i)` for `i` in `0..<requests`, at most `concurrency` at a time, timing each, and
    /// the CPU this process and `serverPID` use meanwhile.
    static func measure(
        requests: Int,
        concurrency: Int,
        serverPID: Int32,
        _ work: @escaping @Sendable (Int) async -> Bool
    ) async -> FetchBenchRun {
        let cpuBefore = (client: ProcessCPU.seconds(), server: ProcessCPU.seconds(pid: serverPID))
        let clock = ContinuousClock()
        let started = clock.now
        let (latencies, failures) = await withTaskGroup(of: (Double, Bool).self) { group in
            var next = 0
            var latencies: [Double] = []
            var failures = 0
            latencies.reserveCapacity(requests)
            func start() {
                let i = next
                next += 1
                group.addTask {
                    let begin = clock.now
                    let ok = await work(i)
                    return (BenchmarkTimer.milliseconds(clock.now - begin), ok)
                }
            }
            while next < min(concurrency, requests) { start() }
            while let (latency, ok) = await group.next() {
                latencies.append(latency)
                if !ok { failures += 1 }
                if next < requests { start() }
            }
            return (latencies, failures)
        }
        let seconds = BenchmarkTimer.milliseconds(clock.now - started) / 1000
        return FetchBenchRun(
            requests: requests,
            seconds: seconds,
            latenciesMilliseconds: latencies,
            failures: failures,
            clientCPUSeconds: ProcessCPU.seconds() - cpuBefore.client,
            serverCPUSeconds: ProcessCPU.seconds(pid: serverPID) - cpuBefore.server
        )
    }
}
