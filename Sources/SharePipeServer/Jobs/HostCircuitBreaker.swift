import Foundation

/// Stops fetching from a host that keeps failing, so a dead or overloaded site costs one attempt a
/// cooldown rather than one per queued link (and SharePipe does not pile onto a site that is down).
///
/// Per host: after ``CircuitBreakerSettings/failureThreshold`` failures in a row the circuit **opens** and the
/// host's jobs wait for ``CircuitBreakerSettings/cooldown``; then one **trial** fetch is let through (the others
/// keep waiting). A trial that succeeds closes the circuit; one that fails opens it again for twice
/// as long, up to ``CircuitBreakerSettings/maxCooldown``. Only the host's health counts: a timeout, a refused
/// connection, a TLS or DNS failure, a 5xx or 429 are failures; a 404 or a page of an unsupported
/// type is the host answering, so a success. ``PreviewWorker`` keys circuits by host and port, and
/// judges only the link's own host: a failure after a redirect to another host counts as the link's
/// host answering, and against nobody.
///
/// Pure state over an explicit clock; ``PreviewWorker`` keeps one per server process (several
/// processes each learn about a failing host for themselves).
struct HostCircuitBreaker: Sendable {
    typealias Settings = CircuitBreakerSettings

    enum Decision: Sendable, Equatable {
        /// Fetch now.
        case allow
        /// Do not fetch from this host before this instant.
        case wait(until: ContinuousClock.Instant)
    }

    private struct Circuit {
        var failures = 0
        /// When open: until when; nil when closed.
        var openUntil: ContinuousClock.Instant?
        var cooldown: Duration
        /// A trial fetch is out: the others wait for its answer.
        var trialRunning = false
    }

    let settings: Settings
    private var circuits: [String: Circuit] = [:]

    init(settings: Settings = Settings()) {
        self.settings = settings
    }

    /// Whether a fetch from `host` may start at `now`. Letting a trial through marks it running.
    mutating func decide(host: String, now: ContinuousClock.Instant) -> Decision {
        guard var circuit = circuits[host], let openUntil = circuit.openUntil else { return .allow }
        if now < openUntil { return .wait(until: openUntil) }
        // The trial holds the circuit for a cooldown; if it never reports (its process died), the
        // next one after that is let through.
        circuit.trialRunning = true
        circuit.openUntil = now + circuit.cooldown
        circuits[host] = circuit
        return .allow
    }

    /// Records how a fetch from `host` went.
    mutating func record(host: String, healthy: Bool, now: ContinuousClock.Instant) {
        if healthy {
            circuits[host] = nil
            return
        }
        var circuit = circuits[host] ?? Circuit(cooldown: settings.cooldown)
        circuit.failures += 1
        if circuit.trialRunning {
            circuit.trialRunning = false
            circuit.cooldown = min(settings.maxCooldown, circuit.cooldown * 2)
            circuit.openUntil = now + circuit.cooldown
        } else if circuit.openUntil == nil, circuit.failures >= settings.failureThreshold {
            circuit.openUntil = now + circuit.cooldown
        }
        circuits[host] = circuit
        if circuits.count > settings.maxHosts { prune(now: now) }
    }

    /// Keeps at most ``CircuitBreakerSettings/maxHosts`` circuits: closed ones go first, then open ones
    /// nobody asked about for longer than the longest cooldown, then the open ones that close soonest.
    /// (Only closed ones were dropped: one failing share per host name, of names without end, kept a
    /// circuit each for good.)
    private mutating func prune(now: ContinuousClock.Instant) {
        circuits = circuits.filter { _, circuit in
            guard let openUntil = circuit.openUntil else { return false }
            return now < openUntil + settings.maxCooldown
        }
        guard circuits.count > settings.maxHosts else { return }
        let latest = circuits.sorted { ($0.value.openUntil ?? now) > ($1.value.openUntil ?? now) }
        circuits = Dictionary(uniqueKeysWithValues: latest.prefix(settings.maxHosts).map { ($0.key, $0.value) })
    }

    /// How many hosts the breaker remembers.
    var rememberedHosts: Int { circuits.count }

    /// Hosts whose circuit is open or on trial.
    var openHosts: Set<String> { Set(circuits.filter { $0.value.openUntil != nil }.keys) }
}

/// The settings of the per-host circuit breaker (``ServerConfiguration/circuitBreaker``).
public struct CircuitBreakerSettings: Sendable {
    /// Failures in a row that open the circuit. Default 5.
    public var failureThreshold: Int
    /// How long the first opening lasts. Default 60 s.
    public var cooldown: Duration
    /// The longest opening. Default 30 min.
    public var maxCooldown: Duration
    /// Hosts remembered at most: closed ones are forgotten first, then open ones not asked about for
    /// longer than ``maxCooldown``, then those that close soonest. Default 10,000.
    public var maxHosts: Int

    public init(
        failureThreshold: Int = 5,
        cooldown: Duration = .seconds(60),
        maxCooldown: Duration = .seconds(1800),
        maxHosts: Int = 10_000
    ) {
        self.failureThreshold = failureThreshold
        self.cooldown = cooldown
        self.maxCooldown = maxCooldown
        self.maxHosts = maxHosts
    }
}
