/// A text field as a feed gives it: HTML (an RSS description, Atom `type="html"` or XHTML) or
/// plain text (Atom's default), read either way.
struct Markup: Equatable {
    var text: String
    var isHTML: Bool

    /// Words for a title or summary.
    var plain: String { isHTML ? PlainText.from(html: text) : PlainText.collapsingSpaces(text) }

    /// HTML for show notes.
    var html: String { isHTML ? text : PlainText.escaped(text) }

    var isEmpty: Bool { text.allSatisfy(\.isWhitespace) }
}
