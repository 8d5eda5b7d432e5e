import AliciaAudio

/// A chapter of a rendered file, in the file's own seconds.
public struct RenderedChapter: Sendable, Equatable {
    public var title: String
    public var start: Double
    public var end: Double
}

/// Where each item and each of its own chapters landed in the output, from the player's frame map:
/// speed and skipped silence move them, so they are placed by the spans the player wrote, never
/// computed from the items' lengths.
enum RenderedChapters {
    /// One chapter per item (`titles` names each entry), then the item's own chapters at their
    /// times in the output; each ends where the next begins, the last at `totalFrames`.
    static func make(_ timeline: OutputTimeline, titles: [QueueEntryID: String], rate: Int, totalFrames: Int64) -> [RenderedChapter] {
        var starts: [(title: String, frame: Int64)] = []
        for (entry, spans) in grouped(timeline.spans) {
            guard let first = spans.first else { continue }
            var title = titles[entry] ?? timeline.metadata[entry]?.tags.title ?? "Item \(starts.count + 1)"
            var own = (timeline.metadata[entry]?.chapters ?? []).compactMap { chapter in
                outputFrame(of: chapter.start, in: spans).map { (title: chapter.title, frame: $0) }
            }
            if let opening = own.first, opening.frame - first.outputStart < Int64(rate / 2) {
                // The item's first chapter begins with it: one chapter, named for both.
                title += ": " + opening.title
                own.removeFirst()
            }
            starts.append((title, first.outputStart))
            starts += own
        }
        starts.sort { $0.frame < $1.frame }
        return starts.enumerated().map { index, start in
            let end = index + 1 < starts.count ? starts[index + 1].frame : totalFrames
            return RenderedChapter(title: start.title, start: Double(start.frame) / Double(rate),
                                   end: Double(max(end, start.frame)) / Double(rate))
        }
    }

    /// The spans of each entry, entries in the order they were first written.
    private static func grouped(_ spans: [OutputTimeline.Span]) -> [(QueueEntryID, [OutputTimeline.Span])] {
        var order: [QueueEntryID] = []
        var byEntry: [QueueEntryID: [OutputTimeline.Span]] = [:]
        for span in spans {
            if byEntry[span.entry] == nil { order.append(span.entry) }
            byEntry[span.entry, default: []].append(span)
        }
        return order.map { ($0, byEntry[$0] ?? []) }
    }

    /// The output frame where the entry's second `seconds` was heard: in the last span that began
    /// at or before it (a point cut out as silence is heard where the cut is); nil before the first
    /// (the item was started past it).
    static func outputFrame(of seconds: Double, in spans: [OutputTimeline.Span]) -> Int64? {
        guard let first = spans.first else { return nil }
        let source = Int64((seconds * Double(first.sourceRate)).rounded())
        guard let index = spans.lastIndex(where: { $0.sourceStart <= source }) else { return nil }
        let span = spans[index]
        var frame = span.outputStart + Int64((Double(source - span.sourceStart) / span.ratio).rounded())
        if index + 1 < spans.count { frame = min(frame, spans[index + 1].outputStart) }
        return frame
    }
}
