/// What writing a batch of a show's episodes did.
package struct EpisodeUpsert: Equatable, Sendable {
    /// The ids of the episodes added, in the batch's order.
    package var inserted: [Int64] = []
    /// How many that were there already were written over.
    package var updated = 0
}
