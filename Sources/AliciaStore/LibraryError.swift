/// Why the library database could not be opened or used, in words a person can act on. Every case
/// names the database's path.
package enum LibraryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file is not an SQLite database (another program's file, or its header is gone).
    case notADatabase(path: String, SQLiteError)
    /// SQLite found the file damaged.
    case corrupt(path: String, SQLiteError)
    /// Written by a newer alicia-player, whose schema this one does not know: left untouched.
    case newerSchema(path: String, found: Int, known: Int)
    /// Any other failure of SQLite or of the file system under it (permissions, a full disk, a
    /// lock held longer than the busy timeout).
    case database(path: String, SQLiteError)

    /// `error`, classified, for the database at `path`.
    init(_ error: SQLiteError, path: String) {
        switch error.primaryCode {
        case SQLiteError.notADatabase: self = .notADatabase(path: path, error)
        case SQLiteError.corrupt: self = .corrupt(path: path, error)
        default: self = .database(path: path, error)
        }
    }

    package var message: String {
        switch self {
        case .notADatabase(let path, let error):
            return "\(path) is not an alicia-player library database (\(error.message)); move it aside and a new one is made"
        case .corrupt(let path, let error):
            return "the library database \(path) is damaged (\(error.message), \(error.operation)); move it aside and a new one is made"
        case .newerSchema(let path, let found, let known):
            return "the library database \(path) has schema version \(found), and this alicia-player knows versions up to \(known): "
                + "a newer alicia-player wrote it; it was left untouched (use the newer alicia-player)"
        case .database(let path, let error):
            return "library database \(path): \(error)"
        }
    }

    package var description: String { message }
}
