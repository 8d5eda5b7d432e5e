/// Writes an OPML 2.0 subscription list (`alicia-player export`), as gPodder and newsboat write
/// theirs: a `head` with a title and `dateCreated` (RFC 822, as OPML 2.0 says), and in the
/// `body` one `<outline type="rss" text title xmlUrl htmlUrl/>` per show. Attribute values are
/// escaped, and characters XML 1.0 cannot carry are left out, so that any title reads back.
public enum OPML {
    public static func document(title: String, created: Int64, outlines: [OPMLOutline]) -> String {
        var lines = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<opml version=\"2.0\">",
            "  <head>",
            "    <title>\(escaped(title))</title>",
            "    <dateCreated>\(FeedDate.rfc822(created))</dateCreated>",
            "  </head>",
            "  <body>",
        ]
        for outline in outlines {
            var line = "    <outline type=\"rss\" text=\"\(escaped(outline.title))\" title=\"\(escaped(outline.title))\""
            line += " xmlUrl=\"\(escaped(outline.feedURL))\""
            if let site = outline.siteURL { line += " htmlUrl=\"\(escaped(site))\"" }
            lines.append(line + "/>")
        }
        lines += ["  </body>", "</opml>", ""]
        return lines.joined(separator: "\n")
    }

    /// Text for an attribute value or element content.
    static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t": out += "&#9;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            default:
                if MarkupRepair.isXMLCharacter(scalar.value) { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }
}
