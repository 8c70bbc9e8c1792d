public import Foundation
public import SharePipeProtocol

/// Who a request acts as, from its bearer token.
public struct Principal: Sendable, Hashable {
    public var user: User
    public var deviceID: UUID
    public var scope: TokenScope
}
