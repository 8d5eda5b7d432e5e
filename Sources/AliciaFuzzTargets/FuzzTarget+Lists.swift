import AliciaPlayerCLI
import AliciaSession

extension FuzzTarget {
    /// Queue files (M3U/M3U8 or one reference a line) and their M3U8 form. Property: what is
    /// written as M3U8 reads back as the same references.
    static let queueFile = FuzzTarget(name: "queue-file", about: "the M3U/M3U8 and plain list parser, and M3U8 writing") { bytes in
        let file = QueueFile.parse(bytes)
        precondition(file.lines.count <= QueueFile.maximumItems, "QueueFile.parse kept more than maximumItems lines")
        let written = QueueFile.m3u8(file.lines.map { (reference: $0.reference, title: $0.title ?? "", duration: $0.duration) })
        let again = QueueFile.parse(Array(written.utf8))
        precondition(again.lines.map(\.reference) == file.lines.map(\.reference), "QueueFile: the M3U8 written does not read back")
    }

    /// `script FILE`: a command a line, every line checked before anything runs.
    static let script = FuzzTarget(name: "script", about: "the playback script parser (`script` command)") { bytes in
        let script = Script.parse(bytes)
        precondition(script.lines.count + script.problems.count <= Script.maximumLines + 1, "Script.parse kept more than maximumLines lines")
    }
}
