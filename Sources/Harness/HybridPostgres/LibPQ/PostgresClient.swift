import CLibPQ
import Dispatch
import Foundation
import Logging
import Synchronization

/// A PostgreSQL connection through Debian's libpq. libpq blocks, so every call runs on a dispatch queue of its
/// own threads, never on Swift's cooperative pool (two threads here). One task uses a connection at a time: the
/// ``PostgresClient`` pool hands it out.
final class PostgresConnection: @unchecked Sendable {
    private let handle: OpaquePointer
    /// False once the server or the socket went away: the pool then drops the connection instead of reusing it.
    private(set) var isUsable = true
    /// This connection's own serial queue. A queue created serial gets a thread of its own whenever it has work
    /// (libdispatch's overcommit pool), where a shared concurrent queue runs on as many threads as there are cores
    /// (two here): eight connections blocked in libpq then took turns, and concurrent field-event uploads stored
    /// about six times fewer events a second than one upload alone (`hybrid-bench ingest`).
    private let queue: DispatchQueue

    private init(handle: OpaquePointer, queue: DispatchQueue) {
        self.handle = handle
        self.queue = queue
    }

    /// Connects with `parameters` (libpq's keywords: host, port, user, password, dbname, sslmode, …).
    static func connect(_ parameters: [(String, String)]) async throws -> PostgresConnection {
        let queue = DispatchQueue(label: "hybrid.postgres.libpq")
        return try await blocking(on: queue) {
            let keys = parameters.map { strdup($0.0) }
            let values = parameters.map { strdup($0.1) }
            defer { (keys + values).forEach { free($0) } }
            var keyPointers = keys.map { UnsafePointer($0) } + [nil]
            var valuePointers = values.map { UnsafePointer($0) } + [nil]
            guard let handle = PQconnectdbParams(&keyPointers, &valuePointers, 0) else {
                throw PSQLError(message: "out of memory creating a connection", sqlState: nil)
            }
            guard PQstatus(handle) == CONNECTION_OK else {
                let message = String(cString: PQerrorMessage(handle)).trimmingCharacters(in: .whitespacesAndNewlines)
                PQfinish(handle)
                throw PSQLError(message: message, sqlState: nil)
            }
            return PostgresConnection(handle: handle, queue: queue)
        }
    }

    /// Runs `query` (one statement) and returns its rows; the logger is kept for PostgresNIO's call shape.
    @discardableResult
    func query(_ query: PostgresQuery, logger: Logger) async throws -> [PostgresRow] {
        try await Self.blocking(on: queue) { try self.execute(query) }
    }

    private func execute(_ query: PostgresQuery) throws -> [PostgresRow] {
        let values: [UnsafeMutablePointer<CChar>?] = query.binds.values.map { $0.map { strdup($0) } ?? nil }
        defer { values.forEach { free($0) } }
        let pointers: [UnsafePointer<CChar>?] = values.map { $0.map { UnsafePointer($0) } }
        let result = query.binds.types.withUnsafeBufferPointer { types in
            pointers.withUnsafeBufferPointer { params in
                PQexecParams(handle, query.sql, Int32(params.count), types.baseAddress, params.baseAddress, nil, nil, 0)
            }
        }
        guard let result else { throw failure(nil) }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK else { throw failure(result) }
        let fields = Int(PQnfields(result))
        let columns = (0..<fields).map { String(cString: PQfname(result, Int32($0))) }
        return (0..<Int(PQntuples(result))).map { row in
            PostgresRow(columns: columns, values: (0..<fields).map { field in
                PQgetisnull(result, Int32(row), Int32(field)) == 1
                    ? nil : String(cString: PQgetvalue(result, Int32(row), Int32(field)))
            })
        }
    }

    /// The server's message and SQLSTATE, or the connection's error.
    private func failure(_ result: OpaquePointer?) -> PSQLError {
        if PQstatus(handle) != CONNECTION_OK { isUsable = false }
        guard let result, let primary = PQresultErrorField(result, Int32(UInt8(ascii: "M"))) else {
            return PSQLError(
                message: String(cString: PQerrorMessage(handle)).trimmingCharacters(in: .whitespacesAndNewlines),
                sqlState: nil)
        }
        let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
        return PSQLError(message: String(cString: primary), sqlState: state)
    }

    func close() {
        PQfinish(handle)
    }

    private static func blocking<T: Sendable>(
        on queue: DispatchQueue, _ work: @escaping @Sendable () throws -> T
    ) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try work() }) }
        }
    }
}

/// A server or connection error: the server's primary message and SQLSTATE (`23505` unique violation), never a
/// statement's values.
struct PSQLError: Error, CustomStringConvertible {
    let message: String
    let sqlState: String?
    var description: String { message + (sqlState.map { " (SQLSTATE \($0))" } ?? "") }
}

/// Up to `maximum` connections shared by every store over one database; a task waits for a free one.
final class PostgresClient: Sendable {
    private enum Ticket {
        case connection(PostgresConnection)
        case openNew
        case closed
    }

    private struct State {
        var idle: [PostgresConnection] = []
        var open = 0
        var waiters: [CheckedContinuation<Ticket, Never>] = []
        var closed = false
    }

    private let parameters: [(String, String)]
    private let maximum: Int
    private let state = Mutex(State())

    init(parameters: [(String, String)], maximumConnections: Int) {
        self.parameters = parameters
        maximum = max(1, maximumConnections)
    }

    /// Runs `query` on a pooled connection.
    @discardableResult
    func query(_ query: PostgresQuery, logger: Logger) async throws -> [PostgresRow] {
        try await withConnection { try await $0.query(query, logger: logger) }
    }

    /// Runs `body` in one transaction on one connection: committed when it returns, rolled back when it throws.
    func withTransaction<T: Sendable>(logger: Logger, _ body: (PostgresConnection) async throws -> T) async throws -> T {
        try await withConnection { connection in
            try await connection.query("BEGIN", logger: logger)
            do {
                let value = try await body(connection)
                try await connection.query("COMMIT", logger: logger)
                return value
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
        }
    }

    func withConnection<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        let connection = try await acquire()
        do {
            let value = try await body(connection)
            release(connection)
            return value
        } catch {
            release(connection)
            throw error
        }
    }

    /// Closes idle connections; connections in use close when returned.
    func close() {
        let (idle, waiters) = state.withLock { state in
            state.closed = true
            defer { state.idle = []; state.waiters = [] }
            return (state.idle, state.waiters)
        }
        idle.forEach { $0.close() }
        waiters.forEach { $0.resume(returning: .closed) }
    }

    private func acquire() async throws -> PostgresConnection {
        let ticket = await withCheckedContinuation { (continuation: CheckedContinuation<Ticket, Never>) in
            state.withLock { state in
                if state.closed {
                    continuation.resume(returning: .closed)
                } else if let connection = state.idle.popLast() {
                    continuation.resume(returning: .connection(connection))
                } else if state.open < maximum {
                    state.open += 1
                    continuation.resume(returning: .openNew)
                } else {
                    state.waiters.append(continuation)
                }
            }
        }
        switch ticket {
        case .connection(let connection):
            return connection
        case .closed:
            throw PSQLError(message: "the database was closed", sqlState: nil)
        case .openNew:
            do {
                return try await PostgresConnection.connect(parameters)
            } catch {
                giveBackSlot()
                throw error
            }
        }
    }

    private func release(_ connection: PostgresConnection) {
        guard connection.isUsable else {
            connection.close()
            giveBackSlot()
            return
        }
        let closeIt = state.withLock { state -> Bool in
            if state.closed { state.open -= 1; return true }
            if !state.waiters.isEmpty {
                state.waiters.removeFirst().resume(returning: .connection(connection))
            } else {
                state.idle.append(connection)
            }
            return false
        }
        if closeIt { connection.close() }
    }

    /// A slot freed without a connection to hand over: a waiter may open its own.
    private func giveBackSlot() {
        state.withLock { state in
            if !state.waiters.isEmpty {
                state.waiters.removeFirst().resume(returning: .openNew)
            } else {
                state.open -= 1
            }
        }
    }
}
