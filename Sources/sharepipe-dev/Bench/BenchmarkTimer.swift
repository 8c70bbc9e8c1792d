import Foundation

/// Times a workload over every page for several rounds and summarises it the way `peers.py` does
/// (best round's total → MB/s, median milliseconds per page within that round), plus the median
/// round, since this machine is shared and noisy.
struct BenchmarkResult {
    var name: String
    var bestSeconds: Double
    var medianSeconds: Double
    var medianMillisecondsPerPage: Double
    var megabytes: Double

    var bestMBPerSecond: Double { megabytes / bestSeconds }
    var medianMBPerSecond: Double { megabytes / medianSeconds }
}

enum BenchmarkTimer {
    /// Runs `work` over every page `rounds` times (at least once).
    static func run(
        _ name: String,
        pages: CorpusPages,
        rounds: Int,
        _ work: (CorpusPages.Page) -> Void
    ) -> BenchmarkResult {
        for page in pages.pages.prefix(3) { work(page) }  // warm up, as peers.py does
        var totals: [Double] = []
        var bestPerPage: [Double] = []
        let clock = ContinuousClock()
        for _ in 0..<max(1, rounds) {
            var perPage: [Double] = []
            perPage.reserveCapacity(pages.pages.count)
            let roundStart = clock.now
            for page in pages.pages {
                let start = clock.now
                work(page)
                perPage.append(milliseconds(clock.now - start))
            }
            let total = milliseconds(clock.now - roundStart) / 1000
            if total < totals.min() ?? .infinity { bestPerPage = perPage }
            totals.append(total)
        }
        return BenchmarkResult(
            name: name,
            bestSeconds: totals.min() ?? .nan,
            medianSeconds: median(totals),
            medianMillisecondsPerPage: median(bestPerPage),
            megabytes: Double(pages.totalBytes) / 1e6
        )
    }

    static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted.count % 2 == 1
            ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
}

extension BenchmarkTimer {
    /// The median time of `runs` runs of `work`, in microseconds (for per-page figures).
    static func medianMicroseconds(runs: Int, _ work: () -> Void) -> Double {
        let clock = ContinuousClock()
        var times: [Double] = []
        for _ in 0..<runs {
            let start = clock.now
            work()
            times.append(milliseconds(clock.now - start) * 1000)
        }
        return median(times)
    }
}

extension Duration {
    /// The duration in seconds.
    var timeInterval: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
