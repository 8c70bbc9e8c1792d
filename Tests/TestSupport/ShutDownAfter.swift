/// Runs `body` with `resource`, then shuts the resource down whatever happened. When `body` throws,
/// its error is the one reported (a failing shutdown then says nothing); when it returns, a failing
/// shutdown fails the test.
///
/// ```swift
/// try await shutDown(after: HTTPClient(eventLoopGroupProvider: .singleton), { try await $0.shutdown() }) { client in
///     try await client.execute(request, timeout: .seconds(5))
/// }
/// ```
package func shutDown<Resource, Value>(
    after resource: Resource,
    _ shutdown: (Resource) async throws -> Void,
    _ body: (Resource) async throws -> Value
) async throws -> Value {
    do {
        let value = try await body(resource)
        try await shutdown(resource)
        return value
    } catch {
        try? await shutdown(resource)
        throw error
    }
}
