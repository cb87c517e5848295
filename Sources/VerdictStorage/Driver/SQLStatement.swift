/// A statement whose SQL never changes, run on the hot path (every notification runs it).
///
/// PostgreSQL prepares it once per connection, named after a hash of its SQL (so two statements
/// never share a name), and then only binds and executes it: no parse, analysis or planning per
/// call, and fewer bytes on the wire. SQLite runs it like any other statement. PostgreSQL infers
/// the parameters' types from their context, so the SQL casts any parameter whose type the
/// context does not fix (`$8::BIGINT` in a select list).
protocol SQLStatement {
    /// The one statement, with `$1…$n` placeholders.
    static var sql: String { get }
}

extension SQLExecutor {
    /// Runs `statement` with `binds` (prepared once per connection on PostgreSQL).
    func query<Statement: SQLStatement>(_ statement: Statement.Type, _ binds: SQLValue...) async throws -> [SQLRow] {
        try await query(prepared: statement, binds)
    }
}

extension SQLStatement {
    /// `verdict_` and the 64-bit FNV-1a hash of the SQL, in hex: a name per distinct statement.
    static var preparedName: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in sql.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return "verdict_" + String(hash, radix: 16)
    }
}
