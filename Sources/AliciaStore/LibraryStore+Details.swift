/// The episode fields that lists leave out, for `episodes --json`.
extension LibraryStore {
    /// Every episode's details, of the show with `showID` or of every show, by episode id.
    package func episodeDetails(showID: Int64? = nil) throws(LibraryError) -> [Int64: EpisodeDetails] {
        let sql = "SELECT id, chapters_url, transcripts, season, episode FROM episodes" + (showID == nil ? "" : " WHERE show_id = ?1")
        return try guarded { () throws(SQLiteError) in
            try database.withStatement(sql) { row throws(SQLiteError) in
                if let showID { try row.bind(showID, at: 1) }
                var details: [Int64: EpisodeDetails] = [:]
                details.reserveCapacity(1024)
                while try row.step() {
                    details[row.int64(at: 0)] = EpisodeDetails(chaptersURL: row.optionalString(at: 1), transcripts: row.optionalString(at: 2),
                                                               season: row.optionalInt64(at: 3), episode: row.optionalInt64(at: 4))
                }
                return details
            }
        }
    }
}
