import Foundation

#if canImport(Darwin)
import Darwin
#endif

/// "Something was added to or removed from the inbox", across processes.
///
/// On Apple platforms a Darwin notification (`notify_post`) reaches the app at once. Everywhere,
/// each change also changes the modification time of the inbox's `items/` folder, which
/// ``ShareInbox/changes(pollingEvery:)`` watches, so Linux needs no inotify and a missed
/// notification costs at most one polling interval.
enum InboxChangeSignal {
    /// The Darwin notification name for the inbox at `folder`.
    static func name(for folder: URL) -> String {
        "dev.sharepipe.inbox-changed." + folder.standardizedFileURL.path
    }

    static func post(for folder: URL) {
        #if canImport(Darwin)
        _ = notify_post(name(for: folder))
        #endif
    }
}

extension ShareInbox {
    /// Yields once at the start and then whenever the inbox changes (an item added or removed by any
    /// process), until the consuming task is cancelled. Drain on each element.
    ///
    /// ```swift
    /// for await _ in inbox.changes() { await drain() }
    /// ```
    /// - Parameter interval: How often the `items/` folder is checked (Apple platforms are also woken
    ///   by a Darwin notification at once). Default half a second.
    public func changes(pollingEvery interval: Duration = .milliseconds(500)) -> AsyncStream<Void> {
        let items = layout.items
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        #if canImport(Darwin)
        var token: Int32 = 0
        let registered = notify_register_dispatch(
            InboxChangeSignal.name(for: folder),
            &token,
            DispatchQueue.global(qos: .utility)
        ) { _ in continuation.yield() }
        let notifyToken = registered == NOTIFY_STATUS_OK ? token : nil
        #endif
        let poller = Task {
            var last = POSIXFile.modificationStamp(items)
            continuation.yield()
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                let stamp = POSIXFile.modificationStamp(items)
                if stamp != last {
                    last = stamp
                    continuation.yield()
                }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in
            poller.cancel()
            #if canImport(Darwin)
            if let notifyToken { notify_cancel(notifyToken) }
            #endif
        }
        return stream
    }
}
