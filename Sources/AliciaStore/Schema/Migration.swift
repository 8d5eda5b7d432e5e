/// One step of a database's schema: an SQL script, and optionally Swift that runs after it in the
/// same transaction (to move data a script cannot). Migration N (1-based) takes a database from
/// `user_version` N-1 to N; the list of them is `LibrarySchema.migrations`.
package struct Migration: Sendable {
    package let sql: String
    package let step: (@Sendable (SQLiteDatabase) throws(SQLiteError) -> Void)?

    package init(_ sql: String, step: (@Sendable (SQLiteDatabase) throws(SQLiteError) -> Void)? = nil) {
        self.sql = sql
        self.step = step
    }

    /// What `apply` found and did.
    package enum Outcome: Equatable, Sendable {
        /// At the newest version already.
        case current(Int)
        case migrated(from: Int, to: Int)
        /// Written by a newer program: left untouched.
        case newer(found: Int, known: Int)
    }

    /// Brings `database` to the last of `migrations`, inside the caller's transaction (one
    /// `BEGIN IMMEDIATE` around the check and every step, so two programs opening one file at once
    /// migrate it once and a failure leaves it at its old version). Writes nothing to a database
    /// newer than `migrations` knows.
    package static func apply(_ migrations: [Migration], to database: SQLiteDatabase) throws(SQLiteError) -> Outcome {
        precondition(!database.isAutocommit, "Migration.apply runs inside a transaction")
        let found = try database.userVersion()
        guard found <= migrations.count else { return .newer(found: found, known: migrations.count) }
        guard found < migrations.count else { return .current(found) }
        for version in (found + 1)...migrations.count {
            let migration = migrations[version - 1]
            try database.execute(migration.sql)
            try migration.step?(database)
        }
        try database.setUserVersion(migrations.count)
        return .migrated(from: found, to: migrations.count)
    }
}
