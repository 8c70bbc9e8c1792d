import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Runs `body` on a thread of its own that reads and writes files as another user, and waits for
/// what it returns: Linux's `setfsuid`, which changes that thread's file-system user alone.
///
/// A process running as root reads every file whatever its mode, so a test that needs a file its
/// code may not read (one left by a `sudo`) runs that code as `user` instead. A thread whose
/// file-system user is not root also loses the capabilities that override file modes, and gets them
/// back when it returns to root. `nil` where this cannot be done (not Linux, or `setfsuid` missing);
/// a process that is not root needs none of this: a file of mode 0 is already unreadable to it.
package func asFileSystemUser<T: Sendable>(_ user: UInt32, _ body: @escaping @Sendable () -> T) async -> T? {
    #if os(Linux)
    guard let setFileSystemUser = fileSystemUserSetter else { return nil }
    return await onOwnThread {
        let previous = setFileSystemUser(user)
        defer { _ = setFileSystemUser(UInt32(bitPattern: previous)) }
        return body()
    }
    #else
    return nil
    #endif
}

/// The user tests give files to when they need one nobody else may read: `nobody`.
package let unprivilegedUser: UInt32 = 65_534

#if os(Linux)
/// `setfsuid` from the C library: Swift's Glibc module does not declare it.
private let fileSystemUserSetter = cLibraryFunction("setfsuid", as: (@convention(c) (UInt32) -> Int32).self)

/// A function of the C library found by name, for the few Swift's Glibc module does not declare
/// (`setfsuid`, `posix_openpt`…); `T` is its `@convention(c)` type.
package func cLibraryFunction<T>(_ name: String, as type: T.Type) -> T? {
    guard let library = dlopen(nil, RTLD_NOW), let symbol = dlsym(library, name) else { return nil }
    return unsafeBitCast(symbol, to: type)
}
#endif
