import Foundation

/// The figures of one workload run at one concurrency: throughput and latency percentiles.
struct FetchBenchRun {
    var requests: Int
    var seconds: Double
    var latenciesMilliseconds: [Double]
    var failures: Int

    var perSecond: Double { Double(requests) / seconds }
    var p50: Double { Self.percentile(latenciesMilliseconds, 0.50) }
    var p99: Double { Self.percentile(latenciesMilliseconds, 0.99) }

    static func percentile(_ values: [Double], _ p: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
    }

    /// Runs `work(i)` for `i` in `0..<requests`, at most `concurrency` at a time, timing each.
    static func measure(
        requests: Int,
        concurrency: Int,
        _ work: @escaping @Sendable (Int) async -> Bool
    ) async -> FetchBenchRun {
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
        return FetchBenchRun(
            requests: requests,
            seconds: BenchmarkTimer.milliseconds(clock.now - started) / 1000,
            latenciesMilliseconds: latencies,
            failures: failures
        )
    }
}
