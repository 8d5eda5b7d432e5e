#if canImport(Glibc)
import Glibc
#endif

/// Where a render writes: the encoder's file and the tagged copy beside the name asked for, hidden
/// and named for this process, renamed into place only when whole (Ctrl-C, a failure or a crash
/// never leaves a partial file under the name).
struct OutputFiles {
    let output: String
    let encoded: String
    let tagged: String

    init(_ output: String) {
        self.output = output
        let directory = Self.directory(of: output)
        let name = output.split(separator: "/").last.map(String.init) ?? output
        let dot = name.lastIndex(of: ".").map { String(name[$0...]) } ?? ""
        let pid = getpid()
        encoded = directory + "/." + name + ".render-\(pid)" + dot
        tagged = directory + "/." + name + ".part-\(pid)" + dot
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The encoded file with its tags and chapters, renamed to the name asked for.
    func finish(_ kind: RenderFormat.Kind, tags: RenderTags) -> RenderProblem? {
        var done = encoded
        switch kind {
        case .wav: break
        case .flac:
            if let problem = FLACComments.write(tags, to: encoded) { return problem }
        case .mp3:
            if let problem = prepend(ID3Chapters.tag(tags)) { return problem }
            done = tagged
        case .opus:
            if let problem = OggComments.copy(encoded, to: tagged, tags: tags) { return problem }
            done = tagged
        }
        guard rename(done, output) == 0 else { return RenderProblem("\(output): cannot be written (\(String(cString: strerror(errno))))") }
        return nil
    }

    /// The tagged copy: `tag`, then the encoded MP3 without any tag of the encoder's own.
    private func prepend(_ tag: [UInt8]) -> RenderProblem? {
        guard let input = fopen(encoded, "rb") else { return RenderProblem("\(encoded): cannot be read back (\(String(cString: strerror(errno))))") }
        defer { fclose(input) }
        guard let file = fopen(tagged, "wb") else { return RenderProblem("\(tagged): cannot be written (\(String(cString: strerror(errno))))") }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var head = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, 10, input) }
        let skip = ID3Chapters.size(atStartOf: Array(buffer[0..<head]))
        if skip > 0 {
            fseek(input, skip, SEEK_SET)
            head = 0
        }
        var ok = fwrite(tag, 1, tag.count, file) == tag.count && fwrite(buffer, 1, head, file) == head
        while ok {
            let count = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, 1 << 16, input) }
            if count == 0 { break }
            ok = fwrite(buffer, 1, count, file) == count
        }
        ok = fclose(file) == 0 && ok
        return ok ? nil : RenderProblem("\(output): the MP3 could not be written with its chapters (\(String(cString: strerror(errno))))")
    }

    /// What is left of an unfinished render.
    func removeLeftovers() {
        unlink(encoded)
        unlink(tagged)
    }
}
