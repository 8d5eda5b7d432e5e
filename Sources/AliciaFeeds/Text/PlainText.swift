/// HTML as the words a terminal shows: tags left out (and what `<script>` and `<style>` hold),
/// character references decoded (HTML's named ones too), white space, non-breaking spaces
/// included, collapsed to single spaces and trimmed. What titles and summaries become.
///
/// A `<` is a tag only when it starts a comment or an HTML element's name (as feedparser decides
/// whether text "looks like HTML"): RSS titles are plain text by the spec and HTML in practice,
/// and `Q&amp;A &lt;live&gt;` means the words `Q&A <live>`, while `&lt;b&gt;` means bold. So
/// `<live>`, `a < b` and `<3` stay text, and so does a `&` that starts no reference (`Q&A`).
package enum PlainText {
    package static func from(html: String) -> String {
        let utf8 = Array(html.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count)
        var pendingSpace = false
        var at = 0
        while at < utf8.count {
            let byte = utf8[at]
            if byte == UInt8(ascii: "<"), at + 1 < utf8.count, let name = tagStart(utf8, at) {
                let (end, breaks) = skipTag(utf8, at, key: name)
                pendingSpace = pendingSpace || breaks
                at = end
                continue
            }
            var scalar: Unicode.Scalar?
            if byte == UInt8(ascii: "&"), let (referenced, end) = reference(utf8, at) {
                scalar = referenced
                at = end
            } else if byte == 0xC2, at + 1 < utf8.count, utf8[at + 1] == 0xA0 {
                scalar = "\u{A0}"
                at += 2
            } else {
                at += 1
            }
            let isSpace = scalar.map { $0 == "\u{A0}" || $0.properties.isWhitespace } ?? (byte == 0x20 || (byte >= 0x09 && byte <= 0x0D))
            if isSpace {
                pendingSpace = true
                continue
            }
            if pendingSpace && !out.isEmpty { out.append(0x20) }
            pendingSpace = false
            if let scalar { Transcoder.appendUTF8(scalar, to: &out) } else { out.append(byte) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// White space after the markup is gone, collapsed and trimmed (Atom's `type="text"`).
    static func collapsingSpaces(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// HTML-escaped text, for notes written as plain text.
    static func escaped(_ text: String) -> String {
        var out: [UInt8] = []
        XMLText.appendEscaped(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The tag's name key (`nameKey`; 0 for `<!…>` and `<?…>`) when the `<` at `at` starts a
    /// comment, a declaration, a processing instruction or an HTML element's tag (a name with a
    /// `:`, Word's `<o:p>`, counts too); nil when it is text.
    private static func tagStart(_ utf8: [UInt8], _ at: Int) -> UInt64? {
        let next = utf8[at + 1]
        if next == UInt8(ascii: "!") || next == UInt8(ascii: "?") { return 0 }
        let (key, end) = nameKey(utf8, at + 1)
        guard end > at + 1 + (next == UInt8(ascii: "/") ? 1 : 0) else { return nil }
        if end < utf8.count && utf8[end] == UInt8(ascii: ":") { return key }
        return htmlElements.contains(key) ? key : nil
    }

    /// A tag's name from `start` (past a `/`), lower-cased and packed six bits a letter or digit
    /// into a number, and where it ends: the names are compared as numbers, and no String is made
    /// per tag. Names longer than ten characters (no HTML element's is) are 0.
    static func nameKey<Bytes: Collection<UInt8>>(_ utf8: Bytes, _ start: Bytes.Index) -> (key: UInt64, end: Bytes.Index) {
        var at = start
        if at < utf8.endIndex, utf8[at] == UInt8(ascii: "/") { at = utf8.index(after: at) }
        var key: UInt64 = 0
        var length = 0
        while at < utf8.endIndex {
            let byte = utf8[at]
            let lower = byte | 0x20
            let value: UInt64
            if lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z") {
                value = UInt64(lower - UInt8(ascii: "a") + 1)
            } else if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                value = UInt64(byte - UInt8(ascii: "0") + 27)
            } else {
                break
            }
            key = key << 6 | value
            length += 1
            at = utf8.index(after: at)
        }
        return (length <= 10 ? key : 0, at)
    }

    private static func keys(_ names: [String]) -> Set<UInt64> {
        Set(names.map { name in nameKey(Array(name.utf8), 0).key })
    }

    /// HTML's element names (HTML 4, 5 and the obsolete ones show notes still carry).
    static let htmlElements = keys([
        "a", "abbr", "acronym", "address", "area", "article", "aside", "audio", "b", "base", "bdi", "bdo", "big", "blink",
        "blockquote", "body", "br", "button", "canvas", "caption", "center", "cite", "code", "col", "colgroup", "data",
        "datalist", "dd", "del", "details", "dfn", "dialog", "dir", "div", "dl", "dt", "em", "embed", "fieldset",
        "figcaption", "figure", "font", "footer", "form", "frame", "frameset", "h1", "h2", "h3", "h4", "h5", "h6", "head",
        "header", "hgroup", "hr", "html", "i", "iframe", "img", "input", "ins", "kbd", "label", "legend", "li", "link",
        "main", "map", "mark", "marquee", "menu", "meta", "meter", "nav", "nobr", "noscript", "object", "ol", "optgroup",
        "option", "output", "p", "param", "picture", "pre", "progress", "q", "rp", "rt", "ruby", "s", "samp", "script",
        "section", "select", "small", "source", "span", "strike", "strong", "style", "sub", "summary", "sup", "svg",
        "table", "tbody", "td", "template", "textarea", "tfoot", "th", "thead", "time", "title", "tr", "track", "tt", "u",
        "ul", "var", "video", "wbr", "math",
    ])

    /// Elements whose content is not text to show, with the start of their end tag.
    private static let hiddenContent: [UInt64: [UInt8]] = [
        nameKey(Array("script".utf8), 0).key: Array("</script".utf8),
        nameKey(Array("style".utf8), 0).key: Array("</style".utf8),
    ]

    /// Past the tag at `start` (a comment through `-->`, `<script>` and `<style>` through their
    /// end tag); whether it separates words (every tag but the inline ones does).
    private static func skipTag(_ utf8: [UInt8], _ start: Int, key: UInt64) -> (end: Int, breaks: Bool) {
        if utf8[start...].starts(with: Array("<!--".utf8)) {
            return (Charset.find(Array("-->".utf8), in: utf8[(start + 4)...]).map { $0 + 3 } ?? utf8.count, true)
        }
        var end = start + 1
        var quote: UInt8?
        while end < utf8.count {
            let byte = utf8[end]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                break
            }
            end += 1
        }
        end = min(end + 1, utf8.count)
        if utf8[start + 1] != UInt8(ascii: "/"), let closing = hiddenContent[key] {
            var close = end
            while close + closing.count <= utf8.count,
                  !zip(utf8[close..<(close + closing.count)], closing).allSatisfy({ $0 | 0x20 == $1 | 0x20 }) {
                close += 1
            }
            end = close + closing.count > utf8.count ? utf8.count : (utf8[close...].firstIndex(of: UInt8(ascii: ">")) ?? utf8.count - 1) + 1
        }
        return (end, !inline.contains(key))
    }

    /// Tags inside a word: `Caf<b>é</b>` is one word.
    private static let inline = keys(["a", "abbr", "b", "bdi", "bdo", "cite", "code", "em", "i", "kbd", "mark", "q", "s", "samp",
                                      "small", "span", "strong", "sub", "sup", "u", "var", "font"])

    /// The character of the reference at `start` (`&eacute;`, `&#233;`, `&#xE9;`) and where it
    /// ends; nil when `&` starts none.
    static func reference(_ utf8: [UInt8], _ start: Int) -> (Unicode.Scalar, Int)? {
        var end = start + 1
        guard end < utf8.count else { return nil }
        if utf8[end] == UInt8(ascii: "#") {
            end += 1
            let hex = end < utf8.count && (utf8[end] | 0x20) == UInt8(ascii: "x")
            if hex { end += 1 }
            var code: UInt32 = 0
            let digitsStart = end
            while end < utf8.count, end - digitsStart < 8, let digit = MarkupRepair.digitValue(utf8[end], hex: hex) {
                code = code * (hex ? 16 : 10) + digit
                end += 1
            }
            guard end > digitsStart, end < utf8.count, utf8[end] == UInt8(ascii: ";") else { return nil }
            return (HTMLEntity.scalar(code: code), end + 1)
        }
        let nameStart = end
        while end < utf8.count, end - nameStart <= MarkupRepair.maximumNameLength,
              (utf8[end] | 0x20) >= UInt8(ascii: "a") && (utf8[end] | 0x20) <= UInt8(ascii: "z") || (utf8[end] >= UInt8(ascii: "0") && utf8[end] <= UInt8(ascii: "9")) {
            end += 1
        }
        guard end > nameStart, end < utf8.count, utf8[end] == UInt8(ascii: ";"),
              let scalar = HTMLEntity.scalar(named: String(decoding: utf8[nameStart..<end], as: UTF8.self)) else { return nil }
        return (scalar, end + 1)
    }
}
