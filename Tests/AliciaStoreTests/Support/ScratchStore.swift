import AliciaStore

extension ScratchDirectory {
    /// A new scratch directory and a store on its `library.db`, which a test defers removing.
    static func withStore() throws -> (ScratchDirectory, LibraryStore) {
        let directory = try ScratchDirectory()
        return (directory, try directory.store())
    }

    /// A connection to the directory's `library.db` (another one on each call).
    func store() throws(LibraryError) -> LibraryStore {
        try LibraryStore(path: file("library.db"))
    }
}
