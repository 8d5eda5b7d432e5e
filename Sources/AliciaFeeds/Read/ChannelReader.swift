/// Reads a channel's own elements (an RSS `channel`, an Atom `feed`) into a `ChannelDraft`, one
/// child at a time (`FeedReader` frees each once taken).
enum ChannelReader {
    static let xmlNamespace = "http://www.w3.org/XML/1998/namespace"

    /// What the channel element itself says (`xml:lang`).
    static func begin(_ channel: XMLNode, into draft: inout ChannelDraft) {
        draft.language = draft.language ?? PodcastElements.nonEmpty(channel.attribute(namespace: xmlNamespace, "lang"))
    }

    /// Takes one child element of the channel (not an item) into its draft.
    static func take(_ child: ReadContext.Element, into draft: inout ChannelDraft, context: ReadContext) {
        switch child.namespace {
        case .none, .rss: takeRSS(child, into: &draft, context: context)
        case .atom: takeAtom(child, into: &draft, context: context)
        case .itunes: takeITunes(child, into: &draft, context: context)
        case .podcast: takePodcast(child, into: &draft, context: context)
        case .dublinCore, .syndication, .googlePlay, .media: takeOther(child, into: &draft, context: context)
        default: break
        }
    }

    static func takeRSS(_ element: ReadContext.Element, into draft: inout ChannelDraft, context: ReadContext) {
        let node = element.node
        switch element.name {
        case "title": draft.title = draft.title ?? context.markup(node)
        case "link": draft.link = draft.link ?? context.webURL(context.text(node), at: node)
        case "description": draft.description = draft.description ?? context.markup(node)
        case "language": draft.language = context.nonEmptyText(node) ?? draft.language
        case "managingeditor": draft.otherAuthor = draft.otherAuthor ?? context.nonEmptyText(node)
        case "ttl":
            let minutes = PodcastElements.length(context.text(node))
            draft.ttlMinutes = minutes.flatMap { $0 > 0 && $0 <= 1_000_000 ? $0 : nil }
        case "image": draft.otherImage = draft.otherImage ?? image(of: node, context: context)
        default: break
        }
    }

    /// RSS's `<image><url>…</url></image>`.
    static func image(of node: XMLNode, context: ReadContext) -> String? {
        for child in context.children(of: node) where child.name == "url" {
            return context.webURL(context.text(child.node), at: child.node)
        }
        return nil
    }

    static func takeAtom(_ element: ReadContext.Element, into draft: inout ChannelDraft, context: ReadContext) {
        let node = element.node
        switch element.name {
        case "title": draft.title = draft.title ?? context.markup(node, atom: true)
        case "subtitle", "tagline": draft.description = draft.description ?? context.markup(node, atom: true)
        case "link":
            let rel = node.attribute("rel")?.trimmingSpaces.lowercased() ?? "alternate"
            if rel == "alternate" { draft.link = draft.link ?? context.webURL(node.attribute("href"), at: node) }
        case "author":
            for child in context.children(of: node) where child.name == "name" {
                draft.otherAuthor = draft.otherAuthor ?? context.nonEmptyText(child.node)
            }
        case "logo", "icon": draft.otherImage = draft.otherImage ?? context.webURL(context.text(node), at: node)
        default: break
        }
    }

    static func takeITunes(_ element: ReadContext.Element, into draft: inout ChannelDraft, context: ReadContext) {
        let node = element.node
        switch element.name {
        case "author": draft.itunesAuthor = draft.itunesAuthor ?? context.nonEmptyText(node)
        case "summary": draft.itunesSummary = draft.itunesSummary ?? context.markup(node)
        case "subtitle": draft.otherDescription = draft.otherDescription ?? context.markup(node)
        case "image": draft.itunesImage = draft.itunesImage ?? PodcastElements.image(node, context: context)
        case "new-feed-url": draft.newFeedURL = draft.newFeedURL ?? context.webURL(context.text(node), at: node)
        case "complete": draft.complete = PodcastElements.isYes(context.text(node))
        case "block": draft.block = PodcastElements.isYes(context.text(node))
        default: break
        }
    }

    static func takePodcast(_ element: ReadContext.Element, into draft: inout ChannelDraft, context: ReadContext) {
        let node = element.node
        switch element.name {
        case "guid": draft.podcastGUID = draft.podcastGUID ?? context.nonEmptyText(node)
        case "funding":
            if let funding = PodcastElements.funding(node, context: context) { draft.funding.append(funding) }
        case "person":
            if let person = PodcastElements.person(node, context: context) { draft.persons.append(person) }
        case "updatefrequency": draft.podcastFrequency = draft.podcastFrequency ?? PodcastElements.updateFrequency(node, context: context)
        default: break
        }
    }

    /// Dublin Core, the syndication module, Google Play and Media RSS: fallbacks.
    static func takeOther(_ element: ReadContext.Element, into draft: inout ChannelDraft, context: ReadContext) {
        let node = element.node
        switch (element.namespace, element.name) {
        case (.dublinCore, "creator"), (.googlePlay, "author"): draft.otherAuthor = draft.otherAuthor ?? context.nonEmptyText(node)
        case (.dublinCore, "language"): draft.language = draft.language ?? context.nonEmptyText(node)
        case (.dublinCore, "title"): draft.dublinCoreTitle = draft.dublinCoreTitle ?? context.nonEmptyText(node)
        case (.dublinCore, "description"), (.googlePlay, "description"):
            draft.otherDescription = draft.otherDescription ?? context.markup(node)
        case (.googlePlay, "image"): draft.otherImage = draft.otherImage ?? PodcastElements.image(node, context: context)
        case (.media, "thumbnail"): draft.otherImage = draft.otherImage ?? context.webURL(node.attribute("url"), at: node)
        case (.syndication, "updateperiod"): draft.syndicationPeriod = context.nonEmptyText(node)
        case (.syndication, "updatefrequency"): draft.syndicationFrequency = context.nonEmptyText(node)
        default: break
        }
    }
}
