import NIOSSL
import Testing

@testable import SharePipeServer

/// How `--database postgres://…` is read. The URL's `sslmode` used to be dropped: every connection was
/// plaintext, even with `sslmode=require` or `verify-full`.
@Suite("Reading a PostgreSQL URL")
struct PostgresURLTests {
    @Test("Host, port, user, password, database and schema")
    func parts() throws {
        let url = try PostgresURL("postgresql://ada:s%40cret@db.example:6543/shares?schema=team_a")
        #expect(url.endpoint == .tcp(host: "db.example", port: 6543))
        #expect(url.username == "ada" && url.password == "s@cret" && url.database == "shares")
        #expect(url.schema == "team_a" && url.poolSize == 16)
        #expect(try PostgresURL("postgres://ada@db.example/shares?pool_size=4").poolSize == 4)
        #expect(try PostgresURL("postgres://ada@db.example/shares").operationTimeout == .seconds(30))
        #expect(try PostgresURL("postgres://ada@db.example/shares?operation_timeout=90").operationTimeout == .seconds(90))
        #expect(try PostgresURL("postgres://ada@db.example/shares").endpoint == .tcp(host: "db.example", port: 5432))
    }

    @Test("sslmode keeps libpq's meaning; over TCP the default is prefer, over a socket disable")
    func tlsModes() throws {
        let cases: [(String, PostgresURL.TLSMode)] = [
            ("", .prefer), ("?sslmode=disable", .disable), ("?sslmode=allow", .allow), ("?sslmode=prefer", .prefer),
            ("?sslmode=require", .require), ("?sslmode=verify-ca", .verifyCA), ("?sslmode=verify-full", .verifyFull),
            ("?tlsmode=require", .require), ("?ssl=true", .prefer), ("?ssl=false", .disable),
            ("?SSLMODE=VERIFY-FULL", .verifyFull),
        ]
        for (query, mode) in cases {
            #expect(try PostgresURL("postgres://ada@db.example/shares\(query)").tlsMode == mode, "\(query)")
        }
        #expect(try PostgresURL("postgres+uds://ada@/run/postgresql/.s.PGSQL.5432#shares").tlsMode == .disable)
        // Only the verify modes check the certificate, as in libpq.
        #expect(try PostgresURL("postgres://a@h/d?sslmode=require").tlsConfiguration.certificateVerification == .none)
        #expect(
            try PostgresURL("postgres://a@h/d?sslmode=verify-ca").tlsConfiguration.certificateVerification
                == .noHostnameVerification
        )
        #expect(
            try PostgresURL("postgres://a@h/d?sslmode=verify-full").tlsConfiguration.certificateVerification
                == .fullVerification
        )
    }

    @Test("A Unix socket: its path, and the database in the fragment")
    func socket() throws {
        let url = try PostgresURL("postgres+uds://ada@/run/postgresql/.s.PGSQL.5432#shares")
        #expect(url.endpoint == .socket(path: "/run/postgresql/.s.PGSQL.5432"))
        #expect(url.database == "shares")
    }

    @Test("A URL that cannot be used says what is wrong with it")
    func refused() {
        let cases = [
            ("postgres://db.example/shares", "names no user"),
            ("postgres://ada@/shares", "names no host"),
            ("postgres://ada@db.example/shares?sslmode=on", "has sslmode=on: it takes disable, allow, prefer"),
            ("postgres://ada@db.example/shares?schema=a-b", "may hold only letters, digits and _"),
            ("mysql://ada@db.example/shares", "is not a postgres:// URL"),
            ("postgres+uds://ada@/#shares", "names no socket"),
            ("postgres://ada@db.example/shares?pool_size=0", "has pool_size=0: it takes 1–100 connections"),
            ("postgres://ada@db.example/shares?operation_timeout=0", "has operation_timeout=0: it takes 1–3600 seconds"),
        ]
        for (text, problem) in cases {
            #expect(throws: StorageError.self, "\(text)") { try PostgresURL(text) }
            do {
                _ = try PostgresURL(text)
            } catch {
                #expect("\(error)".contains(problem), "\(text): \(error)")
            }
        }
    }
}
