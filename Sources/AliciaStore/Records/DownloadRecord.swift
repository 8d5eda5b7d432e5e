/// A downloaded file as the download cache knows it (`CacheEntry`): the database's index of it.
package struct DownloadRecord: Equatable, Sendable {
    /// The cache's key: the episode's position key (its label, else its media path).
    package var key: String
    /// What it was fetched from, without a token.
    package var url: String?
    package var path: String
    package var bytes: Int64
    /// When the download completed, UNIX milliseconds.
    package var completedMS: Int64
    package var title: String?
    /// Never evicted, only removed by hand.
    package var pinned: Bool

    package init(key: String, url: String?, path: String, bytes: Int64, completedMS: Int64, title: String? = nil,
                 pinned: Bool = false) {
        self.key = key
        self.url = url
        self.path = path
        self.bytes = bytes
        self.completedMS = completedMS
        self.title = title
        self.pinned = pinned
    }
}
