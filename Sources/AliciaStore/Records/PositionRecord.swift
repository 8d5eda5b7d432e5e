/// Where one item was left, as the database keeps it: the fields of `positions.json` (milliseconds,
/// the last since 1970), so that `PositionStore` can keep its `SavedPosition` over either backend.
package struct PositionRecord: Equatable, Sendable {
    package var positionMS: Int64
    package var durationMS: Int64?
    /// Heard to the end: it starts from the beginning next time.
    package var played: Bool
    /// When it was saved: of two saves of one key, the later one wins.
    package var updatedMS: Int64

    package init(positionMS: Int64, durationMS: Int64?, played: Bool, updatedMS: Int64) {
        self.positionMS = positionMS
        self.durationMS = durationMS
        self.played = played
        self.updatedMS = updatedMS
    }

    /// From seconds, as `SavedPosition` holds them (rounded to the millisecond as the file was;
    /// negative or not finite made 0).
    package init(position: Double, duration: Double?, played: Bool, updated: Double) {
        self.init(positionMS: Self.milliseconds(position), durationMS: duration.map(Self.milliseconds), played: played,
                  updatedMS: Self.milliseconds(updated))
    }

    package var position: Double { Double(positionMS) / 1000 }
    package var duration: Double? { durationMS.map { Double($0) / 1000 } }
    package var updated: Double { Double(updatedMS) / 1000 }

    /// `positions.json`'s rounding: whole milliseconds, nothing below 0, 0 for what is not a number.
    /// Beyond Int64's range (no real time or length is) it is capped.
    package static func milliseconds(_ seconds: Double) -> Int64 {
        guard seconds.isFinite else { return 0 }
        let value = (max(0, seconds) * 1000).rounded()
        return value >= 9.2e18 ? Int64.max : Int64(value)
    }
}
