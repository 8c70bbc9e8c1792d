/// How much the page client asks of the socket per read.
///
/// Through the first ``smallReadSpan`` bytes of a body, where extraction usually ends, every read
/// is ``base`` bytes, so reading stops close to where extraction did. Past it, a read is an eighth
/// of what has arrived (a power-of-two multiple of ``base``, at most ``largest``): a page read far
/// (one whose head runs on for hundreds of KiB) then costs a few dozen reads rather than hundreds,
/// and overshoots what extraction needed by at most an eighth.
struct PageReadSizing: Sendable, Hashable {
    /// The read size through the first ``smallReadSpan`` bytes (``FetchPolicy/Limits/pageReadSize``).
    let base: Int

    /// Body bytes read `base` at a time.
    static let smallReadSpan = 64 << 10
    /// The largest read.
    static let largest = 64 << 10

    /// The size of the next read once `received` body bytes have arrived.
    func size(afterReceiving received: Int) -> Int {
        guard received >= Self.smallReadSpan else { return base }
        let limit = min(received / 8, Self.largest)
        var size = base
        while size * 2 <= limit { size *= 2 }
        return size
    }
}
