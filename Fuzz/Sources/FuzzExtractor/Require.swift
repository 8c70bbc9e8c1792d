/// Stops the fuzzer with `message` when an invariant does not hold: libFuzzer saves the input.
func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("invariant violated: \(message())") }
}
