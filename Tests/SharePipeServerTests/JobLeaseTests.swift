import Foundation
import LinkPreviewCore
import Logging
import SQLKit
import Testing

@testable import SharePipeServer

/// A worker paused past its 2-minute lease finds its job taken again by another. Its late failure used
/// to put the job back in the queue under the new holder (a third worker could claim it: two fetches
/// at once), and its postponement wrote its own attempt count back over the new holder's.
@Suite("Preview job leases")
struct JobLeaseTests {
    @Test("A worker whose lease ran out neither requeues the job nor rewrites its count", arguments: TestDatabase.all)
    func lateWorker(database: TestDatabase) async throws {
        let storage = try await Database.open(database.location, logger: Logger(label: "test"))
        let linkID = UUID()
        try await storage.run { sql in
            try await sql.raw(
                """
                INSERT INTO links (id, url, status, created_at)
                VALUES (\(bind: linkID.uuidString), 'https://example.com/lease', 'pending', 0)
                """
            ).run()
            try await Database.enqueuePreview(linkID: linkID, at: 0, in: sql)
        }
        let late = try #require(try await storage.claimPreviewJob(lease: .seconds(120)))
        try await storage.run { sql in try await sql.raw("UPDATE jobs SET lease_until = 0").run() }
        let holder = try #require(try await storage.claimPreviewJob(lease: .seconds(120)))
        #expect(holder.id == late.id && holder.attempts == 2)

        // The late worker's retry, postponement and final failure change nothing.
        try await storage.failPreviewJob(late, reason: "slow", retryAt: Date(timeIntervalSince1970: 0))
        try await storage.postponePreviewJob(late, until: Date(timeIntervalSince1970: 0))
        #expect(try await storage.claimPreviewJob(lease: .seconds(120)) == nil, "the job stays with its holder")
        try await storage.failPreviewJob(late, reason: "slow", retryAt: nil)
        func state() async throws -> (link: String, attempts: Int?) {
            try await storage.run { sql in
                let link = try await sql.raw("SELECT status FROM links WHERE id = \(bind: linkID.uuidString)").first()
                let job = try await sql.raw("SELECT attempts FROM jobs WHERE link_id = \(bind: linkID.uuidString)")
                    .first()
                return (
                    try link?.decode(column: "status", as: String.self) ?? "",
                    try job?.decode(column: "attempts", as: Int.self)
                )
            }
        }
        #expect(try await state() == ("pending", 2))

        // The holder's result is the one kept.
        try await storage.completePreviewJob(
            holder,
            metadata: LinkMetadata(url: URL(string: "https://example.com/lease")!, title: "Held"),
            expires: nil
        )
        #expect(try await state() == ("ready", nil))
        try await storage.close()
    }
}
