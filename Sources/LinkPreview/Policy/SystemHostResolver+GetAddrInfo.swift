#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension SystemHostResolver {
    /// The blocking `getaddrinfo` call and the conversion of its list.
    static func lookUp(_ host: String) throws -> [IPAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Darwin)
        hints.ai_socktype = SOCK_STREAM
        #else
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        guard status == 0 else { throw error(status, host: host) }
        defer { freeaddrinfo(list) }
        var addresses: [IPAddress] = []
        var seen: Set<IPAddress> = []
        var entry = list
        while let current = entry {
            if let socketAddress = current.pointee.ai_addr, let address = IPAddress(socketAddress: socketAddress),
                seen.insert(address).inserted
            {
                addresses.append(address)
            }
            entry = current.pointee.ai_next
        }
        return addresses
    }

    private static func error(_ status: Int32, host: String) -> HostResolutionError {
        var message = String(cString: gai_strerror(status))
        if status == EAI_SYSTEM {
            message += " (\(String(cString: strerror(errno))))"
        }
        let code: HostResolutionError.Code
        switch status {
        case EAI_NONAME, noData: code = .notFound
        case EAI_AGAIN: code = .temporaryFailure
        default: code = .failure
        }
        return HostResolutionError(code: code, host: host, message: message, systemCode: status)
    }

    /// `EAI_NODATA` ("no address associated with hostname"): glibc's is -5 but only declared under `_GNU_SOURCE`,
    /// which Swift's Glibc module does not see; Darwin folds it into `EAI_NONAME`.
    private static var noData: Int32 {
        #if canImport(Darwin)
        EAI_NONAME
        #else
        -5
        #endif
    }
}
