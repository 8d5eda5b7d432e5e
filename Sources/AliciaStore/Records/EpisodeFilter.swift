/// Which episodes a list holds.
package enum EpisodeFilter: Equatable, Sendable {
    case all
    case show(Int64)
    /// Flagged new, of every show.
    case new
}
