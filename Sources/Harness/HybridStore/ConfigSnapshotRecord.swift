public import Foundation
import GRDB

/// A remote config the app accepted (fetched, verified, validated), kept so it survives restarts and can be
/// rolled back to. A row of `config_snapshots`.
///
/// The store keeps every accepted version per source; saving a version again replaces the older copy of it and
/// makes it the latest, which is how a rollback becomes the active config.
public struct ConfigSnapshotRecord: Sendable, Hashable {
    /// The URL (or file path) the config came from.
    public var sourceURL: String
    /// The config's own version number; snapshots of one source are ordered by it.
    public var version: Int
    /// The HTTP ETag sent with the config, for `If-None-Match` on the next fetch.
    public var etag: String?
    /// When the config was fetched.
    public var fetchedAt: Date
    /// The config exactly as received, so its signature can be checked again.
    public var rawBytes: Data
    /// The detached signature that came with it, when the source signs its configs.
    public var signature: Data?
    /// Content hash of `rawBytes` as the config module computes it; results record the same hash.
    public var contentHash: String?

    /// Creates a snapshot record; `rawBytes` must be the exact bytes received so the signature still verifies.
    public init(
        sourceURL: String,
        version: Int,
        etag: String? = nil,
        fetchedAt: Date = Date(),
        rawBytes: Data,
        signature: Data? = nil,
        contentHash: String? = nil
    ) {
        self.sourceURL = sourceURL
        self.version = version
        self.etag = etag
        self.fetchedAt = fetchedAt
        self.rawBytes = rawBytes
        self.signature = signature
        self.contentHash = contentHash
    }
}

extension ConfigSnapshotRecord: StoredRecord {
    static let databaseTableName = "config_snapshots"

    enum Columns {
        /// Acceptance order: AUTOINCREMENT never reuses an id, so the largest id is the latest accepted snapshot.
        static let acceptedSeq = Column("accepted_seq")
        static let sourceURL = Column("source_url")
        static let version = Column("version")
        static let etag = Column("etag")
        static let fetchedAt = Column("fetched_at")
        static let rawBytes = Column("raw_bytes")
        static let signature = Column("signature")
        static let contentHash = Column("content_hash")
    }

    init(row: Row) throws {
        self.init(
            sourceURL: try row.decode(forColumn: Columns.sourceURL),
            version: try row.decode(forColumn: Columns.version),
            etag: try row.decode(forColumn: Columns.etag),
            fetchedAt: try row.decode(forColumn: Columns.fetchedAt),
            rawBytes: try row.decode(forColumn: Columns.rawBytes),
            signature: try row.decode(forColumn: Columns.signature),
            contentHash: try row.decode(forColumn: Columns.contentHash)
        )
    }

    func encode(to container: inout PersistenceContainer) throws {
        container[Columns.sourceURL] = sourceURL
        container[Columns.version] = version
        container[Columns.etag] = etag
        container[Columns.fetchedAt] = fetchedAt
        container[Columns.rawBytes] = rawBytes
        container[Columns.signature] = signature
        container[Columns.contentHash] = contentHash
    }
}
