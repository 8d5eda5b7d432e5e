#if canImport(Glibc)
import Glibc
#endif
import AliciaFeeds

/// Where a feed comes from: an http(s) URL fetched by `FeedFetcher`, or a file the listener named
/// (an OPML export, a feed saved to disk), read from disk. A remote document never makes anything
/// read a local file: only what the listener typed is read here.
package enum FeedSource {
    /// True for an http:// or https:// URL.
    package static func isRemote(_ text: String) -> Bool {
        let lower = text.prefix(8).lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    /// The file at `path` (a `file://` URL too), at most `limit` bytes, as a feed's body; an absolute
    /// path to store, and why not when it cannot be read.
    package static func readFile(_ path: String, limit: Int) -> (path: String, response: FeedResponse) {
        var path = path
        if path.hasPrefix("file://") { path = String(path.dropFirst("file://".count)) }
        if !path.hasPrefix("/") {
            if let directory = getcwd(nil, 0) {
                path = String(cString: directory) + "/" + path
                free(directory)
            }
        }
        guard let file = fopen(path, "rb") else {
            return (path, .failed("cannot open it: \(String(cString: strerror(errno)))", retryAt: nil))
        }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count == 0 { break }
            guard bytes.count + count <= limit else {
                return (path, .failed("the file is larger than \(limit >> 20) MiB", retryAt: nil))
            }
            bytes.append(contentsOf: chunk[0..<count])
        }
        if ferror(file) != 0 { return (path, .failed("cannot read it: \(String(cString: strerror(errno)))", retryAt: nil)) }
        return (path, .document(FeedBody(bytes: bytes, contentType: nil, etag: nil, lastModified: nil, movedTo: nil)))
    }
}
