import Foundation
package import NIOCore
package import SQLKit

/// Where the bytes of uploads and blobs live; the database rows that say what they are live in
/// `uploads` and `blobs` (``Database``'s upload statements). Chosen with the database: files beside a
/// SQLite database (``FileBlobStore``), chunks in tables of a PostgreSQL one (``PostgresBlobStore``),
/// so several servers on one PostgreSQL share every blob with no other service.
///
/// The database calls every method that changes bytes inside the transaction that changes the rows
/// (passing its connection as `sql`), under the upload's or blob's lock, so bytes and rows change
/// together: on PostgreSQL in the same transaction, on SQLite while the one writer runs. One
/// exception: a piece of an upload to the file store changes no row, so the database writes and
/// fsyncs it outside the writer, under the upload's own lock (``Database/uploadFileLocks``), and
/// uploads arrive side by side.
package protocol BlobStore: Sendable {
    /// The most bytes one read returns.
    var pieceSize: Int { get }

    /// Whether its bytes change inside the database's transactions, so that no bytes are ever left
    /// without the rows that name them (PostgreSQL's tables); files can be, by a crash between the
    /// file and the commit.
    var changesWithRows: Bool { get }

    /// How many bytes of `upload` are stored durably (0 when none).
    func received(_ upload: UploadKey, in sql: any SQLDatabase) async throws -> Int64

    /// Drops whatever is stored of `upload` past `offset`, then stores `bytes` after it; every byte is
    /// durable when it returns.
    func append(_ bytes: ByteBuffer, to upload: UploadKey, at offset: Int64, in sql: any SQLDatabase) async throws

    /// The stored bytes of `upload` from `offset`: a piece of at most ``pieceSize`` bytes, empty at the end.
    func readUpload(_ upload: UploadKey, at offset: Int64, in sql: any SQLDatabase) async throws -> ByteBuffer

    /// Makes the bytes of `upload` (complete and checked) the blob `upload.sha256`, or keeps the blob
    /// as it is when it is already stored, and removes the upload's bytes. The blob is whole when it
    /// returns; until then it is not there.
    func publish(_ upload: UploadKey, in sql: any SQLDatabase) async throws

    /// Removes the stored bytes of `upload`, if any.
    func discard(_ upload: UploadKey, in sql: any SQLDatabase) async throws

    /// The bytes of blob `sha256` from `offset`: a piece of at most ``pieceSize`` bytes, empty at the end.
    func readBlob(_ sha256: String, at offset: Int64, in sql: any SQLDatabase) async throws -> ByteBuffer

    /// Removes blob `sha256`, if stored.
    func removeBlob(_ sha256: String, in sql: any SQLDatabase) async throws

    /// The blobs stored, and the uploads that have bytes stored: for finding bytes no row names.
    func inventory(in sql: any SQLDatabase) async throws -> (blobs: Set<String>, uploads: Set<UploadKey>)
}

/// The blob store's disk or database failed under it (a full disk, a lost file): the server's fault,
/// never the client's, and logged.
package struct BlobStoreError: Error, Sendable, CustomStringConvertible {
    package var message: String
    package var description: String { message }
}
