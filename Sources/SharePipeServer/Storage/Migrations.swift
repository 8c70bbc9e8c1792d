import Foundation
import Logging
import SQLKit

/// Versioned schema changes, applied in order at start, each in its own transaction and recorded in
/// `schema_migrations`. A migration is never edited once released; a change is a new migration.
enum Migrations {
    struct Migration {
        var version: Int
        var name: String
        /// Run on both databases, then those of the database's own dialect.
        var statements: [String]
        var sqlite: [String] = []
        var postgres: [String] = []
        /// Run after the statements, in their transaction: data the new schema derives from rows.
        var then: (@Sendable (Database.Dialect, any SQLDatabase) async throws -> Void)? = nil

        func statements(for dialect: Database.Dialect) -> [String] {
            statements + (dialect == .sqlite ? sqlite : postgres)
        }
    }

    static let all: [Migration] = [
        Migration(
            version: 1,
            name: "accounts, devices, tokens, links, shares, idempotency keys, jobs",
            statements: [
                """
                CREATE TABLE users (
                    id TEXT PRIMARY KEY, handle TEXT NOT NULL UNIQUE, display_name TEXT NOT NULL,
                    avatar_url TEXT, password_hash TEXT, created_at BIGINT NOT NULL)
                """,
                """
                CREATE TABLE devices (
                    id TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES users(id), name TEXT NOT NULL,
                    created_at BIGINT NOT NULL, revoked_at BIGINT)
                """,
                "CREATE INDEX devices_by_user ON devices (user_id, created_at)",
                """
                CREATE TABLE tokens (
                    hash TEXT PRIMARY KEY, device_id TEXT NOT NULL REFERENCES devices(id), scope TEXT NOT NULL,
                    expires_at BIGINT, created_at BIGINT NOT NULL)
                """,
                """
                CREATE TABLE links (
                    id TEXT PRIMARY KEY, url TEXT NOT NULL, status TEXT NOT NULL, metadata TEXT, failure TEXT,
                    fetched_at BIGINT, expires_at BIGINT, created_at BIGINT NOT NULL)
                """,
                "CREATE TABLE link_aliases (url_key TEXT PRIMARY KEY, link_id TEXT NOT NULL REFERENCES links(id))",
                """
                CREATE TABLE shares (
                    id TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES users(id), device_id TEXT,
                    link_id TEXT NOT NULL REFERENCES links(id), note TEXT, provided TEXT, recipients TEXT,
                    created_at BIGINT NOT NULL)
                """,
                "CREATE INDEX shares_by_user ON shares (user_id, created_at, id)",
                """
                CREATE TABLE idempotency_keys (
                    user_id TEXT NOT NULL, key TEXT NOT NULL, fingerprint TEXT NOT NULL, state TEXT NOT NULL,
                    status INTEGER, response TEXT, created_at BIGINT NOT NULL, PRIMARY KEY (user_id, key))
                """,
                """
                CREATE TABLE jobs (
                    id TEXT PRIMARY KEY, link_id TEXT NOT NULL REFERENCES links(id), state TEXT NOT NULL,
                    attempts INTEGER NOT NULL, run_after BIGINT NOT NULL, lease_until BIGINT, last_error TEXT,
                    created_at BIGINT NOT NULL)
                """,
                // One fetch per link at a time.
                "CREATE UNIQUE INDEX jobs_one_per_link ON jobs (link_id) WHERE state IN ('queued', 'running')",
                "CREATE INDEX jobs_due ON jobs (state, run_after)",
            ]
        ),
        Migration(
            version: 2,
            name: "web sessions; idempotency keys by age, for the sweep",
            statements: [
                """
                CREATE TABLE sessions (
                    hash TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES users(id),
                    created_at BIGINT NOT NULL, expires_at BIGINT NOT NULL)
                """,
                "CREATE INDEX sessions_by_expiry ON sessions (expires_at)",
                "CREATE INDEX idempotency_keys_by_age ON idempotency_keys (created_at)",
            ]
        ),
        Migration(
            version: 3,
            name: "the fetcher's cache in the database; links by expiry, for refreshes",
            statements: [
                """
                CREATE TABLE preview_cache (
                    key_hash TEXT PRIMARY KEY, entry TEXT NOT NULL, stored_at BIGINT NOT NULL)
                """,
                "CREATE INDEX preview_cache_by_age ON preview_cache (stored_at)",
                "CREATE INDEX links_by_expiry ON links (expires_at)",
            ]
        ),
        Migration(
            version: 4,
            name: "conversations, messages, and the Shared with You shelf",
            statements: [
                // member_key: the sorted member ids of a conversation made from a share's handles, so
                // the same people share into the same conversation; NULL for groups made on purpose.
                """
                CREATE TABLE conversations (
                    id TEXT PRIMARY KEY, kind TEXT NOT NULL, title TEXT, member_key TEXT UNIQUE,
                    created_by TEXT NOT NULL REFERENCES users(id), created_at BIGINT NOT NULL)
                """,
                """
                CREATE TABLE conversation_members (
                    conversation_id TEXT NOT NULL REFERENCES conversations(id), user_id TEXT NOT NULL REFERENCES users(id),
                    show_in_shelf INTEGER NOT NULL, joined_at BIGINT NOT NULL, PRIMARY KEY (conversation_id, user_id))
                """,
                "CREATE INDEX conversation_members_by_user ON conversation_members (user_id, conversation_id)",
                """
                CREATE TABLE messages (
                    id TEXT PRIMARY KEY, conversation_id TEXT NOT NULL REFERENCES conversations(id),
                    sender_id TEXT NOT NULL REFERENCES users(id), share_id TEXT, link_id TEXT REFERENCES links(id),
                    note TEXT, created_at BIGINT NOT NULL)
                """,
                "CREATE INDEX messages_by_conversation ON messages (conversation_id, created_at, id)",
                // Per recipient, link and conversation: the latest message of the link there from
                // someone else (the attribution).
                """
                CREATE TABLE shelf_sources (
                    user_id TEXT NOT NULL, link_id TEXT NOT NULL, conversation_id TEXT NOT NULL,
                    message_id TEXT NOT NULL, sender_id TEXT NOT NULL, shared_at BIGINT NOT NULL,
                    PRIMARY KEY (user_id, link_id, conversation_id))
                """,
                "CREATE INDEX shelf_sources_by_conversation ON shelf_sources (user_id, conversation_id)",
                // Per recipient and link: the item. visible: some source is in a conversation whose
                // switch is on; last_shared_at: the latest such source (else the latest of all).
                """
                CREATE TABLE shelf_items (
                    user_id TEXT NOT NULL, link_id TEXT NOT NULL, last_shared_at BIGINT NOT NULL,
                    visible INTEGER NOT NULL, pinned_at BIGINT, removed_at BIGINT, removed_reason TEXT,
                    opens INTEGER NOT NULL DEFAULT 0, summary_impressions INTEGER NOT NULL DEFAULT 0,
                    detail_views INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (user_id, link_id))
                """,
                """
                CREATE INDEX shelf_items_feed ON shelf_items (user_id, last_shared_at, link_id)
                WHERE visible = 1 AND removed_at IS NULL AND pinned_at IS NULL
                """,
                """
                CREATE INDEX shelf_items_pinned ON shelf_items (user_id, pinned_at)
                WHERE pinned_at IS NOT NULL AND removed_at IS NULL
                """,
                """
                CREATE TABLE sharer_affinity (
                    user_id TEXT NOT NULL, sharer_id TEXT NOT NULL, opens INTEGER NOT NULL,
                    PRIMARY KEY (user_id, sharer_id))
                """,
            ]
        ),
        Migration(
            version: 5,
            name: "shelf events, for live changes",
            statements: [
                """
                CREATE TABLE shelf_events (
                    user_id TEXT NOT NULL, seq BIGINT NOT NULL, change TEXT NOT NULL, link_id TEXT NOT NULL,
                    created_at BIGINT NOT NULL, PRIMARY KEY (user_id, seq))
                """,
                "CREATE INDEX shelf_events_by_age ON shelf_events (created_at)",
            ]
        ),
        Migration(
            version: 6,
            name: "public share pages",
            statements: [
                """
                CREATE TABLE public_pages (
                    id TEXT PRIMARY KEY, share_id TEXT NOT NULL UNIQUE REFERENCES shares(id), created_at BIGINT NOT NULL)
                """
            ]
        ),
        Migration(
            version: 7,
            name: "server secrets (the image relay's signing key)",
            statements: ["CREATE TABLE server_secrets (name TEXT PRIMARY KEY, value TEXT NOT NULL)"]
        ),
        Migration(
            version: 8,
            name: "idempotency keys remember the share they made",
            statements: ["ALTER TABLE idempotency_keys ADD COLUMN share_id TEXT"]
        ),
        Migration(
            version: 9,
            name: "messages by share (which shares went to nobody)",
            statements: ["CREATE INDEX messages_by_share ON messages (share_id)"]
        ),
        // Earlier versions aliased a preview's final URL on any site, so a redirector's link could
        // take every later share of the page it led to (LinkAliasRule). Every alias but a link's own
        // URL goes; the link's next refresh makes those the rule allows again.
        Migration(
            version: 10,
            name: "link aliases from previews are remade on the link's own host only",
            statements: [
                "DELETE FROM link_aliases WHERE url_key <> (SELECT l.url FROM links l WHERE l.id = link_aliases.link_id)"
            ]
        ),
        Migration(
            version: 11,
            name: "messages by conversation and link (the latest share behind a reply)",
            statements: [
                "CREATE INDEX messages_by_conversation_link ON messages (conversation_id, link_id, created_at)"
            ]
        ),
        // Keys are kept for good (one per share), so the sweep's index by age read every key older
        // than the retention, all of them but two days', every round. These hold only the keys the
        // sweep still has work on: those with a response, and those that never named a share.
        Migration(
            version: 12,
            name: "idempotency keys the sweep has work on, by age",
            statements: [
                "DROP INDEX idempotency_keys_by_age",
                "CREATE INDEX idempotency_keys_with_response ON idempotency_keys (created_at) WHERE response IS NOT NULL",
                "CREATE INDEX idempotency_keys_without_share ON idempotency_keys (created_at) WHERE share_id IS NULL",
            ]
        ),
        // Earlier versions aliased a preview's final and canonical URLs on any path of the link's host,
        // so on a host whose paths have different owners one page could take another's shares
        // (LinkAliasRule). As migration 10 did, every alias but a link's own URL goes; the link's next
        // refresh makes those the rule allows again.
        Migration(
            version: 13,
            name: "link aliases from previews are remade at the link's own path only",
            statements: [
                "DELETE FROM link_aliases WHERE url_key <> (SELECT l.url FROM links l WHERE l.id = link_aliases.link_id)"
            ]
        ),
        // Starting a group counts the groups its creator started in the last day
        // (Conversation.maxNewGroupsPerDay).
        Migration(
            version: 14,
            name: "conversations by creator and age",
            statements: ["CREATE INDEX conversations_by_creator ON conversations (created_by, created_at)"]
        ),
        // Uploads are per user and SHA-256; blobs per SHA-256, stored once however many upload them.
        // A blob's row is written when its bytes are whole; the bytes are files beside a SQLite
        // database or the chunk tables on PostgreSQL (BlobStore). Housekeeping removes uploads no
        // share references after the retention, and blobs no upload names.
        Migration(
            version: 15,
            name: "uploads and blobs",
            statements: [
                """
                CREATE TABLE blobs (
                    sha256 TEXT PRIMARY KEY, size BIGINT NOT NULL, content_type TEXT NOT NULL, width INTEGER,
                    height INTEGER, created_at BIGINT NOT NULL)
                """,
                """
                CREATE TABLE uploads (
                    user_id TEXT NOT NULL REFERENCES users(id), sha256 TEXT NOT NULL, size BIGINT NOT NULL,
                    name TEXT, complete INTEGER NOT NULL, created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL,
                    PRIMARY KEY (user_id, sha256))
                """,
                "CREATE INDEX uploads_by_blob ON uploads (sha256)",
                "CREATE INDEX uploads_by_age ON uploads (updated_at)",
                // PostgreSQL's blob store (unused on SQLite, whose blobs are files).
                """
                CREATE TABLE upload_chunks (
                    user_id TEXT NOT NULL, sha256 TEXT NOT NULL, start BIGINT NOT NULL, data BYTEA NOT NULL,
                    PRIMARY KEY (user_id, sha256, start))
                """,
                """
                CREATE TABLE blob_chunks (
                    sha256 TEXT NOT NULL, start BIGINT NOT NULL, data BYTEA NOT NULL, PRIMARY KEY (sha256, start))
                """,
            ]
        ),
        // A share's files: the sharer's complete uploads, in their order. An upload a share carries
        // is kept (housekeeping passes it by, and it cannot be removed).
        Migration(
            version: 16,
            name: "share attachments",
            statements: [
                """
                CREATE TABLE share_attachments (
                    share_id TEXT NOT NULL REFERENCES shares(id), position INTEGER NOT NULL, user_id TEXT NOT NULL,
                    sha256 TEXT NOT NULL, name TEXT, PRIMARY KEY (share_id, position))
                """,
                "CREATE INDEX share_attachments_by_upload ON share_attachments (user_id, sha256)",
            ]
        ),
        // When the user last looked at their shelf (what is new since is the navigation's count), and
        // the shelves a link is on (told when its preview finishes).
        Migration(
            version: 17,
            name: "shelf seen and shelves by link",
            statements: [
                "ALTER TABLE users ADD COLUMN shelf_seen_at BIGINT",
                "CREATE INDEX shelf_items_by_link ON shelf_items (link_id)",
            ]
        ),
        // When and from where a device last used its tokens (kept to within five minutes).
        Migration(
            version: 18,
            name: "devices' last use",
            statements: [
                "ALTER TABLE devices ADD COLUMN last_used_at BIGINT",
                "ALTER TABLE devices ADD COLUMN last_used_from TEXT",
            ]
        ),
        // When each member last read a conversation (what others said since is unread).
        Migration(
            version: 19,
            name: "conversations read",
            statements: ["ALTER TABLE conversation_members ADD COLUMN read_at BIGINT"]
        ),
        // Search: a document per user and link (SearchDocument), made again in the transactions that
        // change what it is made of. SQLite: an FTS5 table by rowid, the pairs' rowids beside it.
        // PostgreSQL: the text columns and a tsvector of them (text weighted A–C, facets D), under GIN.
        // Documents are made as rows change; those of a database migrated with shares in it are made
        // here, from what it holds.
        Migration(
            version: 20,
            name: "search documents",
            statements: ["CREATE INDEX shares_by_user_link ON shares (user_id, link_id)"],
            sqlite: [
                """
                CREATE TABLE search_documents (
                    doc INTEGER PRIMARY KEY, user_id TEXT NOT NULL, link_id TEXT NOT NULL, UNIQUE (user_id, link_id))
                """,
                "CREATE INDEX search_documents_by_link ON search_documents (link_id)",
                """
                CREATE VIRTUAL TABLE search_text USING fts5(
                    owner, facets, title, summary, site, url, notes, files, detail = column, prefix = '2 3',
                    tokenize = 'unicode61 remove_diacritics 0')
                """,
            ],
            postgres: [
                """
                CREATE TABLE search_documents (
                    user_id TEXT NOT NULL, link_id TEXT NOT NULL, facets TEXT NOT NULL, title TEXT NOT NULL,
                    summary TEXT NOT NULL, site TEXT NOT NULL, url TEXT NOT NULL, notes TEXT NOT NULL,
                    files TEXT NOT NULL,
                    document tsvector GENERATED ALWAYS AS (
                        setweight(to_tsvector('simple', title), 'A')
                        || setweight(to_tsvector('simple', site || ' ' || url), 'B')
                        || setweight(to_tsvector('simple', summary || ' ' || notes || ' ' || files), 'C')
                        || setweight(to_tsvector('simple', facets), 'D')) STORED,
                    PRIMARY KEY (user_id, link_id))
                """,
                "CREATE INDEX search_documents_by_link ON search_documents (link_id)",
                "CREATE INDEX search_documents_text ON search_documents USING GIN (document)",
            ],
            then: { dialect, sql in try await Database.makeAllSearchDocuments(dialect: dialect, in: sql) }
        ),
        // Shelf items and search documents a change of membership or switch left to recompute.
        Migration(
            version: 21,
            name: "shelf refresh queue",
            statements: [
                "CREATE TABLE shelf_refresh_queue (user_id TEXT NOT NULL, link_id TEXT NOT NULL, PRIMARY KEY (user_id, link_id))"
            ]
        ),
        // Search ranks a band of each user's newest matches (Database.searchBand): PostgreSQL numbers
        // documents in the order they are made, as SQLite's rowid does, and reads a user's by it.
        Migration(
            version: 22,
            name: "search documents in order",
            statements: [],
            postgres: [
                "ALTER TABLE search_documents ADD COLUMN seq BIGINT GENERATED ALWAYS AS IDENTITY",
                "CREATE INDEX search_documents_by_owner ON search_documents (user_id, seq)",
                // The planner weighs the owner's documents against a word's from these statistics.
                "ANALYZE search_documents",
            ]
        ),
        // A deleted account stays as a row that names no one (Database.deleteAccount): the messages
        // others received from it keep their sender.
        Migration(
            version: 23,
            name: "deleted accounts",
            statements: ["ALTER TABLE users ADD COLUMN deleted_at BIGINT"]
        ),
    ]

    /// Applies the migrations the database lacks, in order, each in one transaction of at most
    /// ``Database/migrationDeadline`` on PostgreSQL.
    ///
    /// Several servers may start at once on one PostgreSQL database: each step holds an advisory
    /// lock and reads the applied versions again under it, so one server applies a migration and the
    /// others find it done. A database already migrated past what this build knows (by a newer
    /// SharePipe) is refused rather than used: this build would not know what its tables mean.
    static func apply(to database: Database, logger: Logger) async throws {
        try await database.transaction { sql in
            try await lockMigrations(database, in: sql)
            try await sql.raw(
                "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)"
            ).run()
        }
        let newest = all.map(\.version).max() ?? 0
        let found = try await database.run { sql in try await appliedVersions(in: sql) }
        if let unknown = found.max(), unknown > newest {
            throw StorageError.invalid(
                "This database was migrated by a newer SharePipe (schema version \(unknown); this build knows up "
                    + "to \(newest)). Run that version, or this one on a database of its own."
            )
        }
        for migration in all where !found.contains(migration.version) {
            let applied = try await database.transaction(deadline: Database.migrationDeadline) { sql in
                try await lockMigrations(database, in: sql)
                guard try await !appliedVersions(in: sql).contains(migration.version) else { return false }
                for statement in migration.statements(for: database.dialect) { try await sql.raw(SQLQueryString(statement)).run() }
                try await migration.then?(database.dialect, sql)
                try await sql.raw(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (\(bind: migration.version), \(bind: migration.name), \(bind: Clock.millisecondsNow()))"
                ).run()
                return true
            }
            if applied {
                logger.info("applied migration", metadata: ["db.migration": "\(migration.version) \(migration.name)"])
            }
        }
    }

    /// Holds the advisory lock migrations run under, until the transaction ends (PostgreSQL; SQLite
    /// runs transactions one at a time). One lock per schema: databases in other schemas of the same
    /// PostgreSQL database migrate side by side.
    private static func lockMigrations(_ database: Database, in sql: any SQLDatabase) async throws {
        guard database.dialect == .postgres else { return }
        try await sql.raw(
            "SELECT pg_advisory_xact_lock(hashtextextended('sharepipe.schema_migrations.' || current_schema(), 0))"
        ).run()
    }

    private static func appliedVersions(in sql: any SQLDatabase) async throws -> Set<Int> {
        Set(
            try await sql.raw("SELECT version FROM schema_migrations").all().map {
                try $0.decode(column: "version", as: Int.self)
            }
        )
    }
}

/// Timestamps are stored as Unix milliseconds.
enum Clock {
    static func millisecondsNow() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded()) }
}
