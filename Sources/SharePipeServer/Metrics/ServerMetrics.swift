import Prometheus

/// The server's Prometheus metrics, in a registry of its own (no global metrics system, so several
/// servers in one process, as in tests, keep theirs apart).
final class ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()

    /// Latency buckets from 1 ms to 10 s.
    static let buckets: [Duration] = [1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000]
        .map { .microseconds(Int64($0 * 1000)) }

    static var requests: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "sharepipe",
            metricName: "http_requests",
            unitName: "total",
            helpText: "HTTP requests by method, route template and status."
        )
    }
    static var duration: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "sharepipe",
            metricName: "http_request_duration",
            unitName: "seconds",
            helpText: "HTTP request latency by method and route template."
        )
    }
    static var previews: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "sharepipe",
            metricName: "preview_jobs",
            unitName: "total",
            helpText: "Preview jobs ended, by outcome: ready, wall, retry, failed."
        )
    }
    static var fetches: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "sharepipe",
            metricName: "preview_fetches",
            unitName: "total",
            helpText: "Preview fetches by source (job, api) and result: ok, wall, or the fetcher's error code "
                + "(dns, connect, tls, httpStatus, timedOut, blockedAddress, ...)."
        )
    }
    static var jobs: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "sharepipe",
            metricName: "jobs",
            unitName: "",
            helpText: "Preview jobs in the database, by state (read when scraped)."
        )
    }

    /// One HTTP request, by method and route (the route template, never the raw path).
    func recordRequest(method: String, route: String, status: Int, duration: Duration) {
        registry.makeCounter(
            descriptor: Self.requests,
            labels: [("method", method), ("route", route), ("status", String(status))]
        ).increment()
        registry.makeDurationHistogram(
            descriptor: Self.duration,
            labels: [("method", method), ("route", route)],
            buckets: Self.buckets
        ).record(duration)
    }

    /// One fetch's result: `ok`, `wall`, or a ``LinkPreviewError/Code`` raw value.
    func recordFetch(source: String, result: String) {
        registry.makeCounter(descriptor: Self.fetches, labels: [("source", source), ("result", result)]).increment()
    }

    /// A preview job's end: `ready`, `wall`, `retry`, `failed`, `postponed` (its host's circuit is open).
    func recordPreview(_ outcome: String) {
        registry.makeCounter(descriptor: Self.previews, labels: [("outcome", outcome)]).increment()
    }

    /// Jobs waiting and running.
    func setJobs(queued: Int, running: Int) {
        registry.makeGauge(descriptor: Self.jobs, labels: [("state", "queued")]).set(Double(queued))
        registry.makeGauge(descriptor: Self.jobs, labels: [("state", "running")]).set(Double(running))
    }
}
