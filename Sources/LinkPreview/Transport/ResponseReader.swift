import NIOCore
import NIOHTTP1

/// Reads one HTTP response on its connection's event loop, piece by piece as the bytes arrive, and
/// says after each piece whether it wants more: ``PageClient`` issues the next socket read only then,
/// so nothing is read past what the reader needs.
protocol ResponseReader: Sendable {
    associatedtype Output: Sendable

    /// The response head has arrived. Returns whether the body is wanted.
    mutating func head(_ head: HTTPResponseHead) throws -> Bool

    /// A piece of the body (decompressed). Returns whether more is wanted.
    mutating func body(_ bytes: ByteBuffer) throws -> Bool

    /// Reading ended: the reader wanted no more, or the body ended. Returns the result.
    mutating func finish() throws -> Output

    /// Reading stopped short of the response's end: the peer went silent for the read timeout, or
    /// closed the connection. Returns a result made of what arrived when that is whole enough to be
    /// true, else nil, and the exchange fails as it would have.
    mutating func finishCutShort() throws -> Output?
}
