import Crypto
import NIOCore
import Synchronization

/// The SHA-256 of uploads hashed as their pieces are stored, so that the check at the last byte
/// needs no second pass over a 25 MiB file. An upload's hash is carried only while its pieces arrive
/// in order on this server; one resumed after a restart, or on another server, is hashed from its
/// stored bytes instead (``UploadService/finish(_:size:)``). At most ``capacity`` uploads are followed;
/// past that the oldest is dropped (and hashed from its bytes when it ends).
final class UploadHashes: Sendable {
    private struct Running {
        var offset: Int64
        var hasher: SHA256
        var order: UInt64
    }

    private let running = Mutex<(states: [UploadKey: Running], next: UInt64)>(([:], 0))

    /// The most uploads followed at once.
    static let capacity = 1_024

    init() {}

    /// Adds `bytes`, just stored at `offset` of upload `key`, to its hash: a hash starts at offset 0
    /// and goes on only from where it stopped; a piece from anywhere else ends it.
    func stored(_ bytes: ByteBuffer, of key: UploadKey, at offset: Int64) {
        guard !bytes.readableBytesView.isEmpty else { return }
        var found = running.withLock { running -> Running? in running.states.removeValue(forKey: key) }
        if offset == 0 { found = Running(offset: 0, hasher: SHA256(), order: 0) }
        guard var state = found, state.offset == offset else { return }
        state.hasher.update(data: bytes.readableBytesView)  // outside the lock: one upload's pieces come one at a time
        state.offset += Int64(bytes.readableBytes)
        running.withLock { running in
            running.next += 1
            state.order = running.next
            running.states[key] = state
            if running.states.count > Self.capacity,
                let oldest = running.states.min(by: { $0.value.order < $1.value.order })?.key
            {
                running.states[oldest] = nil
            }
        }
    }

    /// The hex SHA-256 of upload `key` when every one of its `size` bytes was hashed as it was
    /// stored; nil otherwise. Either way the upload is no longer followed.
    func digest(of key: UploadKey, size: Int64) -> String? {
        guard let state = running.withLock({ $0.states.removeValue(forKey: key) }), state.offset == size else { return nil }
        return SHA256.hex(state.hasher.finalize())
    }

    /// Stops following upload `key` (removed, or refused).
    func forget(_ key: UploadKey) {
        _ = running.withLock { $0.states.removeValue(forKey: key) }
    }
}
