/// What the cache knows of one downloaded file, kept beside it as `NAME.json`.
package struct CacheEntry: Codable, Equatable, Sendable {
    /// What it is cached under: an episode's label, else its media path (`/api/audio/x.wav`).
    package var key: String
    package var title: String
    package var label: String?
    /// The backend's media path, without the token.
    package var mediaPath: String?
    /// Bytes on disk.
    package var size: Int64
    /// When the download completed, milliseconds since 1970: "oldest" in the eviction order.
    package var downloadedMS: Int64
    /// `download --pin`: never evicted, only removed by hand.
    package var pinned: Bool

    package init(key: String, title: String, label: String? = nil, mediaPath: String? = nil, size: Int64 = 0,
                 downloadedMS: Int64 = 0, pinned: Bool = false) {
        self.key = key
        self.title = title
        self.label = label
        self.mediaPath = mediaPath
        self.size = size
        self.downloadedMS = downloadedMS
        self.pinned = pinned
    }

    private enum CodingKeys: String, CodingKey {
        case key, title, label, mediaPath = "media_path", size, downloadedMS = "downloaded_ms", pinned
    }

    /// The file name it is kept under in `media/`: the key with anything but letters, digits, `-`,
    /// `_` and `.` made `_` (a label is that already), a short hash when that changed it (two keys
    /// must not meet in one name), and the media path's extension.
    package var fileName: String {
        var base = ""
        var changed = false
        for scalar in key.unicodeScalars {
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".": base.unicodeScalars.append(scalar)
            default:
                base += "_"
                changed = true
            }
        }
        while base.hasPrefix(".") || base.hasPrefix("_") {
            base.removeFirst()
            changed = true
        }
        if base.count > 80 {
            base = String(base.suffix(80))
            changed = true
        }
        if changed || base.isEmpty {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in key.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            base += (base.isEmpty ? "" : "-") + String(hash & 0xFFFF_FFFF, radix: 16)
        }
        let ext = Self.fileExtension(of: mediaPath ?? key)
        if !ext.isEmpty, !base.lowercased().hasSuffix(ext) { base += ext }
        return base
    }

    /// `.wav` of `/api/audio/s1e01.wav?x=1`; empty when there is none that looks like one.
    static func fileExtension(of path: String) -> String {
        let bare = path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? path
        guard let name = bare.split(separator: "/").last, let dot = name.lastIndex(of: ".") else { return "" }
        let ext = name[dot...].lowercased()
        guard ext.count <= 6, ext.dropFirst().allSatisfy({ $0.isLetter || $0.isNumber }) else { return "" }
        return ext
    }
}
