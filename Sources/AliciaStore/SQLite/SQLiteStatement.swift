internal import CSQLite

/// Owns one prepared statement. Parameters are bound by index (1-based, as in SQLite) or by name
/// (`:name`, as written in the SQL); columns are read by index (0-based) after `step()` returned
/// true. `reset()` makes it ready to run again with no parameters bound.
///
/// It belongs to the thread of the `SQLiteDatabase` that prepared it. It may outlive that object:
/// the connection is closed with `sqlite3_close_v2`, which waits for its last statement.
package final class SQLiteStatement {
    let handle: OpaquePointer
    /// The SQL it was prepared from (placeholders only, never a value): what its errors name.
    package let sql: String
    /// Set while `SQLiteDatabase.withStatement` lends it out: a cached statement is not lent twice.
    var isLent = false

    /// Wraps `sqlite3_prepare_v3`.
    init(connection: OpaquePointer, sql: String, persistent: Bool) throws(SQLiteError) {
        var prepared: OpaquePointer?
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        let code = sqlite3_prepare_v3(connection, sql, -1, flags, &prepared, nil)
        guard code == SQLITE_OK, let prepared else {
            sqlite3_finalize(prepared)
            throw SQLiteError(code: code == SQLITE_OK ? SQLiteError.misuse : code, connection: connection,
                              operation: "preparing `\(sql)`")
        }
        handle = prepared
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    private func check(_ code: Int32, _ doing: @autoclosure () -> String) throws(SQLiteError) {
        guard code != SQLITE_OK else { return }
        throw SQLiteError(code: code, connection: sqlite3_db_handle(handle), operation: "\(doing()) of `\(sql)`")
    }

    // MARK: Binding

    /// Wraps `sqlite3_bind_int64`.
    package func bind(_ value: Int64?, at index: Int) throws(SQLiteError) {
        guard let value else { return try bindNull(at: index) }
        try check(sqlite3_bind_int64(handle, Int32(index), value), "binding parameter \(index)")
    }

    package func bind(_ value: Int?, at index: Int) throws(SQLiteError) {
        try bind(value.map(Int64.init), at: index)
    }

    /// 1 or 0. Wraps `sqlite3_bind_int64`.
    package func bind(_ value: Bool, at index: Int) throws(SQLiteError) {
        try bind(Int64(value ? 1 : 0), at: index)
    }

    /// Wraps `sqlite3_bind_double`.
    package func bind(_ value: Double?, at index: Int) throws(SQLiteError) {
        guard let value else { return try bindNull(at: index) }
        try check(sqlite3_bind_double(handle, Int32(index), value), "binding parameter \(index)")
    }

    /// Copied by SQLite (`SQLITE_TRANSIENT`). Wraps `sqlite3_bind_text64`.
    package func bind(_ value: String?, at index: Int) throws(SQLiteError) {
        guard var value else { return try bindNull(at: index) }
        let code = value.withUTF8 { utf8 in
            utf8.withMemoryRebound(to: CChar.self) { text in
                // An empty buffer may have no address, and a null pointer would bind NULL, not "".
                guard let start = text.baseAddress else {
                    return sqlite3_bind_text64(handle, Int32(index), "", 0, alicia_sqlite_transient(), UInt8(SQLITE_UTF8))
                }
                return sqlite3_bind_text64(handle, Int32(index), start, UInt64(text.count), alicia_sqlite_transient(),
                                           UInt8(SQLITE_UTF8))
            }
        }
        try check(code, "binding parameter \(index)")
    }

    /// Copied by SQLite (`SQLITE_TRANSIENT`). Wraps `sqlite3_bind_blob64`.
    package func bind(_ value: [UInt8]?, at index: Int) throws(SQLiteError) {
        guard let value else { return try bindNull(at: index) }
        let code = value.withUnsafeBytes { bytes in
            // As for text: an empty blob is a zero-length blob, not NULL.
            bytes.isEmpty ? sqlite3_bind_zeroblob(handle, Int32(index), 0)
                : sqlite3_bind_blob64(handle, Int32(index), bytes.baseAddress, UInt64(bytes.count), alicia_sqlite_transient())
        }
        try check(code, "binding parameter \(index)")
    }

    /// Wraps `sqlite3_bind_null`.
    package func bindNull(at index: Int) throws(SQLiteError) {
        try check(sqlite3_bind_null(handle, Int32(index)), "binding parameter \(index)")
    }

    /// The index of `name` (`:name`, `@name` or `$name`, as the SQL writes it).
    /// Wraps `sqlite3_bind_parameter_index`.
    package func parameterIndex(_ name: String) throws(SQLiteError) -> Int {
        let index = Int(sqlite3_bind_parameter_index(handle, name))
        guard index > 0 else {
            throw SQLiteError(code: SQLiteError.range, message: "no parameter named \(name)", operation: "binding `\(sql)`")
        }
        return index
    }

    package func bind(_ value: Int64?, named name: String) throws(SQLiteError) { try bind(value, at: parameterIndex(name)) }
    package func bind(_ value: Int?, named name: String) throws(SQLiteError) { try bind(value, at: parameterIndex(name)) }
    package func bind(_ value: Bool, named name: String) throws(SQLiteError) { try bind(value, at: parameterIndex(name)) }
    package func bind(_ value: Double?, named name: String) throws(SQLiteError) { try bind(value, at: parameterIndex(name)) }
    package func bind(_ value: String?, named name: String) throws(SQLiteError) { try bind(value, at: parameterIndex(name)) }
    package func bind(_ value: [UInt8]?, named name: String) throws(SQLiteError) { try bind(value, at: parameterIndex(name)) }

    // MARK: Running

    /// Runs to the next row: true when there is one to read, false when done. Wraps `sqlite3_step`.
    @discardableResult
    package func step() throws(SQLiteError) -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code:
            throw SQLiteError(code: code, connection: sqlite3_db_handle(handle), operation: "running `\(sql)`")
        }
    }

    /// Ready to run again, with every parameter unbound. Wraps `sqlite3_reset` and `sqlite3_clear_bindings`.
    package func reset() {
        // sqlite3_reset repeats the last step's error, which `step` has already thrown.
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    // MARK: Columns

    /// Wraps `sqlite3_column_count`.
    package var columnCount: Int { Int(sqlite3_column_count(handle)) }

    /// Wraps `sqlite3_column_type`.
    package func isNull(at column: Int) -> Bool {
        sqlite3_column_type(handle, Int32(column)) == SQLITE_NULL
    }

    /// 0 for NULL. Wraps `sqlite3_column_int64`.
    package func int64(at column: Int) -> Int64 { sqlite3_column_int64(handle, Int32(column)) }

    package func optionalInt64(at column: Int) -> Int64? { isNull(at: column) ? nil : int64(at: column) }

    package func bool(at column: Int) -> Bool { int64(at: column) != 0 }

    /// 0 for NULL. Wraps `sqlite3_column_double`.
    package func double(at column: Int) -> Double { sqlite3_column_double(handle, Int32(column)) }

    package func optionalDouble(at column: Int) -> Double? { isNull(at: column) ? nil : double(at: column) }

    /// "" for NULL; invalid UTF-8 is repaired. Wraps `sqlite3_column_text` and `sqlite3_column_bytes`.
    package func string(at column: Int) -> String {
        guard let text = sqlite3_column_text(handle, Int32(column)) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, Int32(column)))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    package func optionalString(at column: Int) -> String? { isNull(at: column) ? nil : string(at: column) }

    /// Empty for NULL. Wraps `sqlite3_column_blob` and `sqlite3_column_bytes`.
    package func bytes(at column: Int) -> [UInt8] {
        guard let blob = sqlite3_column_blob(handle, Int32(column)) else { return [] }
        let count = Int(sqlite3_column_bytes(handle, Int32(column)))
        return Array(UnsafeRawBufferPointer(start: blob, count: count))
    }
}
