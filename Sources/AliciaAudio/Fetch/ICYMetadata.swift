/// Takes SHOUTcast/Icecast in-band metadata out of a live stream's body. A server asked for it
/// (`Icy-MetaData: 1`) answers with `icy-metaint: N`: after every N bytes of audio comes one length
/// byte L and L × 16 bytes of text such as `StreamTitle='Artist - Song';StreamUrl='';`. The audio
/// is what remains. A value: the fetch thread copies it before a chunk and keeps the copy when the
/// window cannot take the chunk yet (libcurl hands the same bytes again after a pause).
struct ICYMetadata: Sendable {
    /// Audio bytes between two metadata blocks.
    let interval: Int
    /// Audio bytes left before the next length byte.
    private var audioLeft: Int
    /// Text bytes left of the block being read (nil: not in a block).
    private var blockLeft: Int?
    /// The block read so far (at most 255 × 16 bytes: bounded by the format).
    private var block: [UInt8] = []

    /// nil when `header` (the `icy-metaint` value) is not a usable interval.
    init?(header: String?) {
        guard let header, let interval = Int(header.trimmed), interval > 0, interval <= 1 << 20 else { return nil }
        self.interval = interval
        audioLeft = interval
    }

    /// Appends the audio of `bytes` to `audio` and returns the titles whose blocks ended in them,
    /// each with the index in `audio` of the first byte heard under it.
    mutating func split(_ bytes: UnsafeRawBufferPointer, into audio: inout [UInt8]) -> [(at: Int, title: String)] {
        var titles: [(at: Int, title: String)] = []
        var index = 0
        while index < bytes.count {
            if let left = blockLeft {
                let take = min(left, bytes.count - index)
                block.append(contentsOf: bytes[index..<index + take])
                index += take
                if take == left {
                    blockLeft = nil
                    audioLeft = interval
                    if let title = Self.streamTitle(in: block) { titles.append((audio.count, title)) }
                    block.removeAll(keepingCapacity: true)
                } else {
                    blockLeft = left - take
                }
            } else if audioLeft == 0 {
                let length = Int(bytes[index]) * 16
                index += 1
                if length == 0 {
                    audioLeft = interval
                } else {
                    blockLeft = length
                }
            } else {
                let take = min(audioLeft, bytes.count - index)
                audio.append(contentsOf: bytes[index..<index + take])
                index += take
                audioLeft -= take
            }
        }
        return titles
    }

    /// The `StreamTitle` of a block: the text between `StreamTitle='` and the next `';` (or the
    /// block's end), UTF-8 or else Latin-1, as stations send both; nil when there is none.
    static func streamTitle(in block: [UInt8]) -> String? {
        let key = Array("StreamTitle='".utf8)
        guard let start = block.firstRange(of: key)?.upperBound else { return nil }
        var end = block.endIndex
        var i = start
        while i + 1 < block.endIndex {
            if block[i] == UInt8(ascii: "'") && block[i + 1] == UInt8(ascii: ";") {
                end = i
                break
            }
            i += 1
        }
        var text = Array(block[start..<end])
        while let last = text.last, last == 0 { text.removeLast() }
        let decoded = String(validating: text, as: UTF8.self)
            ?? String(String.UnicodeScalarView(text.map { Unicode.Scalar($0) }))
        let title = String(String.UnicodeScalarView(decoded.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F })).trimmed
        return title.isEmpty ? nil : title
    }
}
