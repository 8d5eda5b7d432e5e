internal import AliciaJSON

/// The episodes of `/api/tracks`, grouped into shelves by collection in the
/// backend's order, each with the index `tracks` shows (1, 2, …, in shelf order).
public struct Library: Sendable, Equatable {
    public struct Shelf: Sendable, Equatable {
        public var collection: String
        public var title: String
        public var entries: [Entry]
    }

    public struct Entry: Sendable, Equatable {
        /// 1-based, as `tracks` prints it.
        public var index: Int
        public var episode: Episode
    }

    public let shelves: [Shelf]

    public init(_ episodes: [Episode]) {
        var order: [String] = []
        var grouped: [String: [Episode]] = [:]
        for episode in episodes {
            if grouped[episode.collection] == nil { order.append(episode.collection) }
            grouped[episode.collection, default: []].append(episode)
        }
        var index = 0
        shelves = order.map { collection in
            let members = grouped[collection] ?? []
            return Shelf(
                collection: collection,
                title: members.first?.collectionTitle ?? collection,
                entries: members.map { episode in
                    index += 1
                    return Entry(index: index, episode: episode)
                }
            )
        }
    }

    public var entries: [Entry] { shelves.flatMap(\.entries) }

    public var isEmpty: Bool { shelves.isEmpty }

    /// What a reference names.
    public enum Resolution: Equatable, Sendable {
        case found(Entry)
        case ambiguous([Entry])
        case notFound(suggestions: [Entry])
    }

    /// Finds what `reference` names: an episode label (`S11E04`, any case), an index
    /// from `tracks` (`3`), or an unambiguous piece of a title (any case).
    public func resolve(_ reference: String) -> Resolution {
        let wanted = reference.lowercased()
        let all = entries
        if let match = all.first(where: { $0.episode.label?.lowercased() == wanted }) {
            return .found(match)
        }
        if let number = Int(reference), let match = all.first(where: { $0.index == number }) {
            return .found(match)
        }
        let byTitle = all.filter { $0.episode.title.lowercased().contains(wanted) }
        if byTitle.count == 1 { return .found(byTitle[0]) }
        if let exact = byTitle.first(where: { $0.episode.title.lowercased() == wanted }) { return .found(exact) }
        if byTitle.count > 1 { return .ambiguous(byTitle) }
        let labelPieces = all.filter { $0.episode.label?.lowercased().contains(wanted) ?? false }
        if labelPieces.count == 1 { return .found(labelPieces[0]) }
        return .notFound(suggestions: labelPieces.isEmpty ? all : labelPieces)
    }
}

extension Library {
    /// The normalised list for scripts (`tracks --json`): every episode with its
    /// index, the contract's defaults filled in, and `hasAudio`. Media paths are
    /// given without the token.
    /// As JSON for scripts; `progress` adds each episode's resume position and played mark, by label;
    /// `downloaded` (labels, else titles) marks the episodes in the download cache.
    public func json(progress: [String: (position: Double, played: Bool)] = [:], downloaded: Set<String>? = nil) -> String {
        /// An episode as it encodes itself, and what the list adds to it.
        struct Item: Encodable {
            var index: Int
            var episode: Episode
            var position: Double?
            var played: Bool?
            var downloaded: Bool?

            private enum Added: String, CodingKey { case index, hasAudio, position, played, downloaded }

            func encode(to encoder: any Encoder) throws {
                try episode.encode(to: encoder)
                var added = encoder.container(keyedBy: Added.self)
                try added.encode(index, forKey: .index)
                try added.encode(episode.hasAudio, forKey: .hasAudio)
                try added.encodeIfPresent(position, forKey: .position)
                try added.encodeIfPresent(played, forKey: .played)
                try added.encodeIfPresent(downloaded, forKey: .downloaded)
            }
        }
        let items = entries.map { entry in
            let e = entry.episode
            return Item(index: entry.index, episode: e,
                        position: e.label.flatMap { progress[$0]?.position } ?? (progress.isEmpty ? nil : 0),
                        played: e.label.flatMap { progress[$0]?.played } ?? (progress.isEmpty ? nil : false),
                        downloaded: downloaded.map { $0.contains(e.label ?? e.title) })
        }
        // Plain strings and finite numbers only: encoding cannot fail short of memory.
        guard let text = try? JSON.encode(items, layout: .indented) else { return "[]" }
        return String(decoding: text, as: UTF8.self)
    }
}
