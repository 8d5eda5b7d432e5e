/// `podcast:alternateEnclosure`: the same episode in another form (another bitrate, codec or
/// language), with the places it can be fetched from (`podcast:source`).
public struct AlternateEnclosure: Sendable, Equatable {
    public struct Source: Sendable, Equatable {
        /// Absolute, http or https (IPFS, torrent and other sources are left out).
        public var uri: String
        public var contentType: String?

        public init(uri: String, contentType: String? = nil) {
            self.uri = uri
            self.contentType = contentType
        }
    }

    public var type: String?
    public var length: Int64?
    /// Bits per second.
    public var bitrate: Double?
    public var title: String?
    public var language: String?
    public var rel: String?
    public var codecs: String?
    /// `default="true"`: this is the form the main enclosure is.
    public var isDefault: Bool
    public var sources: [Source]

    public init(type: String? = nil, length: Int64? = nil, bitrate: Double? = nil, title: String? = nil, language: String? = nil,
                rel: String? = nil, codecs: String? = nil, isDefault: Bool = false, sources: [Source] = []) {
        self.type = type
        self.length = length
        self.bitrate = bitrate
        self.title = title
        self.language = language
        self.rel = rel
        self.codecs = codecs
        self.isDefault = isDefault
        self.sources = sources
    }
}
