internal import CSQLite

/// An SQLite error: its (extended) result code, SQLite's own words and what was being done, on
/// one line. It never holds a bound value: `operation` is a fixed label or SQL text, whose values
/// are always bound as parameters, never spliced in.
package struct SQLiteError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The extended result code (`SQLITE_BUSY_SNAPSHOT`, …); `primaryCode` is its low byte.
    package let code: Int32
    /// `sqlite3_errmsg` at the time, else `sqlite3_errstr` of the code.
    package let message: String
    /// What was being done: "opening", "running `BEGIN IMMEDIATE`", "preparing `SELECT …`".
    package let operation: String

    package init(code: Int32, message: String, operation: String) {
        self.code = code
        self.message = message
        self.operation = Self.oneLine(operation)
    }

    /// The result code without its extended bits (`SQLITE_BUSY` for `SQLITE_BUSY_SNAPSHOT`).
    package var primaryCode: Int32 { code & 0xFF }

    package static let error: Int32 = SQLITE_ERROR
    package static let busy: Int32 = SQLITE_BUSY
    package static let locked: Int32 = SQLITE_LOCKED
    package static let readOnly: Int32 = SQLITE_READONLY
    package static let ioError: Int32 = SQLITE_IOERR
    package static let corrupt: Int32 = SQLITE_CORRUPT
    package static let full: Int32 = SQLITE_FULL
    package static let cannotOpen: Int32 = SQLITE_CANTOPEN
    package static let constraint: Int32 = SQLITE_CONSTRAINT
    package static let range: Int32 = SQLITE_RANGE
    package static let notADatabase: Int32 = SQLITE_NOTADB
    /// Also what the wrapper reports for its own misuse (a bind to a parameter name the SQL lacks).
    package static let misuse: Int32 = SQLITE_MISUSE

    /// `operation: message (code N)`.
    package var description: String { "\(operation): \(message) (SQLite code \(code))" }

    /// The error the connection `handle` holds for `code`. Wraps `sqlite3_errmsg`.
    init(code: Int32, connection handle: OpaquePointer?, operation: String) {
        // sqlite3_errmsg describes the connection's most recent failure; where there is no
        // connection (a failed open without one) the code's generic text stands in.
        let text = handle.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
        self.init(code: code, message: text ?? Self.text(of: code), operation: operation)
    }

    /// SQLite's English for `code` ("database is locked"). Wraps `sqlite3_errstr`.
    static func text(of code: Int32) -> String {
        sqlite3_errstr(code).map { String(cString: $0) } ?? "unknown error"
    }

    /// SQL for an operation label: whitespace runs made one space and cut at 80 characters, so an
    /// error stays one readable line.
    static func oneLine(_ text: String) -> String {
        var line = ""
        var space = false
        for character in text {
            if character.isWhitespace {
                space = !line.isEmpty
                continue
            }
            if space { line.append(" ") }
            space = false
            line.append(character)
            if line.count >= 80 { return line + "…" }
        }
        return line
    }
}
