import Synchronization
import Testing

@testable import SharePipeServer

@Suite("Requests that arrive together run as one batch")
struct RequestBatcherTests {
    /// Records the batches it is given; each waits until the test opens the gate.
    final class Recorder: Sendable {
        let batches = Mutex<[[String]]>([])
        let gate = Mutex<[CheckedContinuation<Void, Never>]>([])

        func run(_ requests: [String]) async throws -> [Result<String, any Error>] {
            batches.withLock { $0.append(requests) }
            await withCheckedContinuation { continuation in gate.withLock { $0.append(continuation) } }
            if requests.contains("fail") { throw BatchFailed() }
            return requests.map { .success($0.uppercased()) }
        }

        /// Lets the waiting batch finish.
        func open() async {
            while true {
                if let next = gate.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
                    next.resume()
                    return
                }
                await Task.yield()
            }
        }

        func waitForBatches(_ count: Int) async {
            while batches.withLock({ $0.count }) < count { await Task.yield() }
        }
    }

    struct BatchFailed: Error {}

    @Test("A lone request runs at once; those arriving meanwhile go together, each answered with its own result")
    func batchesWhatQueues() async throws {
        let recorder = Recorder()
        let batcher = RequestBatcher<String, String>(maxBatchSize: 10, maxConcurrentBatches: 1) {
            try await recorder.run($0)
        }
        async let first = batcher.submit("a")
        await recorder.waitForBatches(1)
        async let second = batcher.submit("b")
        async let third = batcher.submit("c")
        while batcher.queued < 2 { await Task.yield() }
        await recorder.open()
        await recorder.waitForBatches(2)
        await recorder.open()
        let answers = try await [first, second, third]
        #expect(answers == ["A", "B", "C"])
        let batches = recorder.batches.withLock { $0 }
        #expect(batches.first == ["a"])
        #expect(batches.dropFirst().first.map(Set.init) == ["b", "c"])
    }

    @Test("Requests with one exclusive key never share a batch")
    func exclusiveKeysApart() async throws {
        let recorder = Recorder()
        let batcher = RequestBatcher<String, String>(maxBatchSize: 10, maxConcurrentBatches: 1, exclusiveKey: { $0 }) {
            try await recorder.run($0)
        }
        async let first = batcher.submit("x")
        await recorder.waitForBatches(1)
        async let second = batcher.submit("k")
        async let third = batcher.submit("k")
        while batcher.queued < 2 { await Task.yield() }
        for count in 2...3 {
            await recorder.open()
            await recorder.waitForBatches(count)
        }
        await recorder.open()
        let answers = try await [first, second, third]
        #expect(answers == ["X", "K", "K"])
        #expect(recorder.batches.withLock { $0 } == [["x"], ["k"], ["k"]])
    }

    @Test("A batch that fails fails each of its requests, and the next batch still runs")
    func failureReachesEveryRequest() async throws {
        let recorder = Recorder()
        let batcher = RequestBatcher<String, String>(maxBatchSize: 10, maxConcurrentBatches: 1) {
            try await recorder.run($0)
        }
        async let first = batcher.submit("x")
        await recorder.waitForBatches(1)
        async let second = Result { try await batcher.submit("fail") }
        async let third = Result { try await batcher.submit("y") }
        while batcher.queued < 2 { await Task.yield() }
        await recorder.open()
        await recorder.waitForBatches(2)
        await recorder.open()
        #expect(try await first == "X")
        let failed = await [second, third]
        #expect(failed.allSatisfy { if case .failure(let error) = $0 { error is BatchFailed } else { false } })
        async let fourth = batcher.submit("z")
        await recorder.waitForBatches(3)
        await recorder.open()
        #expect(try await fourth == "Z")
    }
}

extension Result where Failure == any Error {
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
