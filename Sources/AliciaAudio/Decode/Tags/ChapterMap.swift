/// Where chapters start and which one a position is in: in seconds of the item's own time, as
/// positions are, so speed and skipped silence change nothing.
public enum ChapterMap {
    /// A position this close before a chapter's start counts as in it (a seek to a start can land
    /// a rounding short of it).
    public static let tolerance = 0.01

    /// The index of the chapter `position` is in; -1 before the first (as mpv's `chapter`); nil
    /// when there are none.
    public static func index(of position: Double, in chapters: [Chapter]) -> Int? {
        guard !chapters.isEmpty else { return nil }
        return (chapters.lastIndex { $0.start <= position + tolerance }) ?? -1
    }

    /// Where chapter `index` ends: its own end when the file says, else where the next starts,
    /// else the item's end (nil when that is not known).
    public static func end(of index: Int, in chapters: [Chapter], duration: Double?) -> Double? {
        guard chapters.indices.contains(index) else { return nil }
        if let end = chapters[index].end, end > chapters[index].start { return end }
        return index + 1 < chapters.count ? chapters[index + 1].start : duration
    }

    /// The chapter a step of `steps` from `position` goes to: within `restart` seconds of a
    /// chapter's start, -1 is the chapter before; later it is this chapter's start again (as
    /// "previous" does for items). Before the first chapter, -1 is the item's start (-1 is
    /// returned); past the last, nil.
    public static func step(_ steps: Int, from position: Double, in chapters: [Chapter], restart: Double) -> Int? {
        guard let current = index(of: position, in: chapters) else { return nil }
        // Clamped: a step is at most the list's length either way (and `Int.max` must not trap).
        var target = current + min(max(steps, -chapters.count - 1), chapters.count + 1)
        if steps < 0, current >= 0, position - chapters[current].start > restart { target += 1 }
        guard target < chapters.count else { return nil }
        return max(-1, target)
    }
}
