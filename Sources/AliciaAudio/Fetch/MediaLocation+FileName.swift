extension MediaLocation {
    /// The name an item is shown by (and the stream's name in mixers): the file's name, without
    /// the query, percent-decoded.
    public var fileName: String {
        let path = display.split(separator: "?").first.map(String.init) ?? display
        return MediaLocation.percentDecoded(path.split(separator: "/").last.map(String.init) ?? path)
    }
}
