// A live stream's titles as it plays. Feeder thread only.
extension PlayerCore {
    /// A live stream's title or station changed (or is first known): the entry's metadata says it
    /// (the title as the tags' title, the station as artist and album, as a show), the stream's
    /// name on the sound server follows, and subscribers hear `.metadataChanged`.
    func followLive(_ source: ItemSource) {
        guard source.format?.isLive == true, let live = source.liveStream else { return }
        if let seen = feeder.liveChangesSeen, seen.entry == source.entry, seen.changes == live.changes { return }
        feeder.liveChangesSeen = (source.entry, live.changes)
        let sink = shared.withLock { s -> (any AudioSink)? in
            var metadata = s.status.metadata[source.entry] ?? source.metadata
            // Until a title comes (or from a station that sends none), the station's name.
            if let title = live.info.title ?? live.info.name { metadata.tags.title = title }
            if let name = live.info.name {
                metadata.tags.artist = name
                metadata.tags.album = name
            }
            s.status.metadata[source.entry] = metadata
            return s.status.sink
        }
        if let title = live.info.title ?? live.info.name { sink?.setMediaName(title) }
        post(source.entry, .metadataChanged)
    }
}
