extension ItemReader {
    /// iTunes' item elements.
    static func takeITunes(_ element: ReadContext.Element, into draft: inout ItemDraft, context: ReadContext) {
        let node = element.node
        switch element.name {
        case "duration":
            let text = context.text(node)
            guard draft.duration == nil, !text.isEmpty else { return }
            draft.duration = FeedDuration.seconds(text)
            if draft.duration == nil { draft.warnings.append("the duration \"\(URLText.shortened(text))\" cannot be read") }
        case "episodetype": draft.episodeType = FeedItem.EpisodeType(rawValue: context.text(node).lowercased())
        case "block": draft.block = PodcastElements.isYes(context.text(node))
        case "image": draft.itunesImage = draft.itunesImage ?? PodcastElements.image(node, context: context)
        case "season": draft.itunesSeason = draft.itunesSeason ?? PodcastElements.wholeNumber(context.text(node))
        case "episode": draft.itunesEpisode = draft.itunesEpisode ?? PodcastElements.wholeNumber(context.text(node))
        case "summary": draft.itunesSummary = draft.itunesSummary ?? context.markup(node)
        case "subtitle": draft.otherSummary = draft.otherSummary ?? context.markup(node)
        case "title": draft.itunesTitle = draft.itunesTitle ?? context.nonEmptyText(node)
        default: break
        }
    }

    /// Podcasting 2.0's item elements.
    static func takePodcast(_ element: ReadContext.Element, into draft: inout ItemDraft, context: ReadContext) {
        let node = element.node
        switch element.name {
        case "chapters":
            guard draft.chaptersURL == nil else { return }
            draft.chaptersURL = context.fetchableURL(node.attribute("url"), at: node, what: "chapters", warnings: &draft.warnings)
            draft.chaptersType = PodcastElements.nonEmpty(node.attribute("type"))
        case "transcript":
            if let transcript = PodcastElements.transcript(node, context: context, warnings: &draft.warnings) {
                draft.transcripts.append(transcript)
            }
        case "person":
            if let person = PodcastElements.person(node, context: context) { draft.persons.append(person) }
        case "season": draft.podcastSeason = draft.podcastSeason ?? PodcastElements.wholeNumber(context.text(node))
        case "episode": draft.podcastEpisode = draft.podcastEpisode ?? PodcastElements.number(context.text(node))
        case "funding":
            if let funding = PodcastElements.funding(node, context: context) { draft.funding.append(funding) }
        case "alternateenclosure":
            if let alternate = PodcastElements.alternateEnclosure(node, context: context) { draft.alternateEnclosures.append(alternate) }
        default: break
        }
    }
}
