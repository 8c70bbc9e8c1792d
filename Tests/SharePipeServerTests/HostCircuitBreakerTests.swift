import Testing

@testable import SharePipeServer

@Suite("Circuit breaking per host")
struct HostCircuitBreakerTests {
    static let start = ContinuousClock.now
    static func at(_ seconds: Int) -> ContinuousClock.Instant { start + .seconds(seconds) }

    func breaker() -> HostCircuitBreaker {
        HostCircuitBreaker(settings: .init(failureThreshold: 3, cooldown: .seconds(60), maxCooldown: .seconds(200)))
    }

    @Test("Three failures in a row open the circuit for a minute; other hosts are not affected")
    func opens() {
        var breaker = breaker()
        for second in 0..<2 {
            breaker.record(host: "down.example", healthy: false, now: Self.at(second))
            #expect(breaker.decide(host: "down.example", now: Self.at(second)) == .allow)
        }
        breaker.record(host: "down.example", healthy: false, now: Self.at(2))
        #expect(breaker.decide(host: "down.example", now: Self.at(3)) == .wait(until: Self.at(62)))
        #expect(breaker.decide(host: "up.example", now: Self.at(3)) == .allow)
        #expect(breaker.openHosts == ["down.example"])
    }

    @Test("A success between failures starts the count again")
    func successResets() {
        var breaker = breaker()
        breaker.record(host: "flaky.example", healthy: false, now: Self.at(0))
        breaker.record(host: "flaky.example", healthy: false, now: Self.at(1))
        breaker.record(host: "flaky.example", healthy: true, now: Self.at(2))
        breaker.record(host: "flaky.example", healthy: false, now: Self.at(3))
        breaker.record(host: "flaky.example", healthy: false, now: Self.at(4))
        #expect(breaker.decide(host: "flaky.example", now: Self.at(5)) == .allow)
    }

    @Test("After the cooldown one trial goes through while the rest wait; its success closes the circuit")
    func trialCloses() {
        var breaker = breaker()
        for second in 0..<3 { breaker.record(host: "h", healthy: false, now: Self.at(second)) }
        #expect(breaker.decide(host: "h", now: Self.at(62)) == .allow)
        #expect(breaker.decide(host: "h", now: Self.at(63)) == .wait(until: Self.at(122)))
        breaker.record(host: "h", healthy: true, now: Self.at(64))
        #expect(breaker.decide(host: "h", now: Self.at(65)) == .allow)
        #expect(breaker.openHosts.isEmpty)
    }

    @Test("A failed trial opens the circuit for twice as long, up to the maximum")
    func trialFailsBacksOff() {
        var breaker = breaker()
        for second in 0..<3 { breaker.record(host: "h", healthy: false, now: Self.at(second)) }
        #expect(breaker.decide(host: "h", now: Self.at(62)) == .allow)
        breaker.record(host: "h", healthy: false, now: Self.at(63))
        #expect(breaker.decide(host: "h", now: Self.at(100)) == .wait(until: Self.at(183)))
        #expect(breaker.decide(host: "h", now: Self.at(183)) == .allow)
        breaker.record(host: "h", healthy: false, now: Self.at(184))
        // 240 s would be twice 120 s; the maximum is 200 s.
        #expect(breaker.decide(host: "h", now: Self.at(185)) == .wait(until: Self.at(384)))
    }

    /// Only closed circuits were ever forgotten: a failing share per host name, of names without end
    /// (`x1.dead.example`, `x2.dead.example`…), kept an open circuit each for good.
    @Test("Open circuits are forgotten past the host limit: stale ones first, then those closing soonest")
    func boundedMemory() {
        var breaker = HostCircuitBreaker(
            settings: .init(failureThreshold: 1, cooldown: .seconds(60), maxCooldown: .seconds(200), maxHosts: 3)
        )
        breaker.record(host: "old.example", healthy: false, now: Self.at(0))
        for index in 0..<10 {
            breaker.record(host: "x\(index).dead.example", healthy: false, now: Self.at(1_000 + index))
            #expect(breaker.rememberedHosts <= 3)
        }
        #expect(breaker.openHosts == ["x7.dead.example", "x8.dead.example", "x9.dead.example"])
    }
}
