/// Waits until `condition` holds, checking every few milliseconds, for at most `timeout`; returns
/// whether it held. For states a test cannot be told about (a caller has joined a queue); the timeout is
/// generous so that a slow, busy machine does not fail the test.
package func eventually(timeout: Duration = .seconds(30), _ condition: () -> Bool) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while !condition() {
        guard clock.now < deadline else { return false }
        try? await Task.sleep(for: .milliseconds(2))
    }
    return true
}
