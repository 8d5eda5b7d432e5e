// A growing item (`GrowingParts`: a synthesis voiced as it plays): its parts as they are listed,
// the wait at the end of those known so far, and each new part's frames as it is reached.
extension ItemSource {
    /// The item has several parts, or may come to.
    var isMultiPart: Bool { parts.count > 1 || growth != nil }

    /// More parts may still be listed: the item's length is unknown.
    var isGrowing: Bool { growth.map { !$0.state.finished } ?? false }

    /// The parts of `fixed` then those of `grown` past them (a growing item's list holds the first
    /// ones too).
    static func merged(_ fixed: [MediaLocation], _ grown: [MediaLocation]) -> [MediaLocation] {
        guard grown.count > fixed.count, grown.prefix(fixed.count).elementsEqual(fixed) else {
            return grown.first == fixed.first ? (grown.count > fixed.count ? grown : fixed) : fixed + grown
        }
        return grown
    }

    /// Takes the parts listed since last looked.
    func refreshParts() {
        guard let growth else { return }
        let listed = growth.state.parts
        if listed.count > parts.count, listed.prefix(parts.count).elementsEqual(parts) { parts = listed }
    }

    /// Waits (at most `patience`) for a part after those known: `.grown` (the next read goes on
    /// into it), `.finished` (the item ends where it is), `.interrupted` (a request, or time to look).
    func awaitGrowth(patience: Duration) -> GrowingParts.Wait {
        guard let growth else { return .finished }
        let wait = growth.awaitPart(after: parts.count, patience: patience)
        if wait == .grown { refreshParts() }
        return wait
    }

    /// Why the parts still to come cannot be, if so.
    var growthFailure: String? { growth?.state.failure }

    /// Records the frames of the part just opened when they were not known at `open` (it was listed
    /// later); a part in another format than the first cannot be heard as one: why, then.
    func learnFrames(of partFormat: AudioFormat) -> PlaybackError? {
        guard let format else { return nil }
        guard partFormat.sampleRate == format.sampleRate, partFormat.channels == format.channels,
              partFormat.sampleType == format.sampleType else {
            return .cannotDecode(url: parts[part].display,
                reason: "part \(part + 1) of \(item.title) is \(partFormat.sampleRate) Hz, \(partFormat.channels) ch, not like the first")
        }
        if partFrames.count == part { partFrames.append(partFormat.frames ?? -1) }
        return nil
    }

    /// The length of the item once every part is there and known, else nil.
    var completeFrames: Int64? {
        guard !isGrowing, partFrames.count == parts.count, !partFrames.contains(-1) else { return nil }
        return partFrames.reduce(0, +)
    }
}
