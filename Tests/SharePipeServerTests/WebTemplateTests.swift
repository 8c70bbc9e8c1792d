import Foundation
import HTTPTypes
import Hummingbird
import SharePipeProtocol
import Testing

@testable import SharePipeServer

/// A page whose template was missing answered a bare 500 with no body, request after request; the
/// start now refuses to go on without every template.
@Suite("Web templates")
struct WebTemplateTests {
    @Test("Every page's template is found at start, and a missing one stops the start, naming it")
    func missingTemplateStopsTheStart() async throws {
        _ = try await WebPages.load()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("templates-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for template in WebTemplate.allCases where template != .home {
            try Data("<p>{{title}}</p>".utf8).write(to: folder.appendingPathComponent(template.rawValue + ".mustache"))
        }
        await #expect { try await WebPages.load(from: folder.path) } throws: {
            "\($0)".contains("home.mustache are missing")
        }
        try Data("<p>home</p>".utf8).write(to: folder.appendingPathComponent("home.mustache"))
        let pages = try await WebPages.load(from: folder.path)
        let shelf = WebShelfPage(csrf: "c", user: .init(User.example), cards: [], nextCursor: nil)
        #expect(pages.render(shelf).status == .ok)
    }
}

extension User {
    static let example = User(
        id: UUID(),
        handle: "ada",
        displayName: "Ada",
        avatarURL: nil,
        createdAt: Date()
    )
}
