/// How many terminal columns text takes.
///
/// Terminals lay text out per code point (wcwidth), while modern ones also draw
/// emoji sequences as one glyph. The widths and the grapheme clusters are
/// utf8proc's (`Utf8proc`); the rules on top follow what terminals agree on:
/// - an emoji cluster (emoji presentation, an emoji with VS16, a ZWJ sequence,
///   a skin-tone sequence, a flag, a keycap) is one glyph two columns wide;
/// - any other cluster is the sum of its scalars, each as `utf8proc_charwidth`
///   says, but 0 for a conjoining Hangul vowel or final, 1 for the format
///   characters terminals draw, and 2 for the few blocks that glibc's `wcwidth`
///   and Unicode 16 draw wide and utf8proc's Unicode 15 does not. Summing
///   matches terminals on Indic conjuncts and decomposed Hangul, which they do
///   not draw as one cell.
///
/// East Asian Ambiguous counts 1 (the width outside CJK locales). Where terminals
/// disagree the wider guess wins: an emoji with VS15 still counts 2, since a
/// column too many leaves a gap but a column too few pushes the line past the
/// edge.
public enum DisplayWidth {
    public static func of(_ text: String) -> Int {
        var total = 0
        var cluster: [Unicode.Scalar] = []
        var breaker = Utf8proc.GraphemeBreaker()
        for scalar in text.unicodeScalars {
            if breaker.breaks(before: scalar), !cluster.isEmpty {
                total += of(cluster: cluster)
                cluster.removeAll(keepingCapacity: true)
            }
            cluster.append(scalar)
        }
        return cluster.isEmpty ? total : total + of(cluster: cluster)
    }

    public static func of(_ character: Character) -> Int {
        if let ascii = character.asciiValue {
            // "\r\n" is one Character with ASCII value 10: both are controls.
            return ascii >= 0x20 && ascii < 0x7F ? 1 : 0
        }
        // A Character is Swift's cluster; utf8proc's may be finer (Unicode 15 without the
        // Indic conjunct rule), so it is measured as a string is.
        return of(String(character))
    }

    /// `text` cut to at most `width` columns, ending in `…` when it was cut.
    public static func truncate(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        if of(text) <= width { return text }
        var kept = ""
        var used = 0
        for character in text {
            let columns = of(character)
            if used + columns > width - 1 { break }
            kept.append(character)
            used += columns
        }
        return kept + "…"
    }

    /// `text` cut to `width` columns (with `…` when cut) and padded with spaces
    /// to exactly `width` columns.
    public static func pad(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        let kept = truncate(text, to: width)
        return kept + String(repeating: " ", count: max(0, width - of(kept)))
    }

    /// The columns of one cluster (as utf8proc breaks them).
    private static func of(cluster: [Unicode.Scalar]) -> Int {
        if cluster.count == 1, cluster[0].isASCII {
            let value = cluster[0].value
            return value >= 0x20 && value < 0x7F ? 1 : 0
        }
        if isEmojiCluster(cluster) { return 2 }
        var total = 0
        for scalar in cluster { total += of(scalar) }
        return total
    }

    /// The columns of one scalar outside an emoji cluster.
    static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x20 || (0x7F...0x9F).contains(value) { return 0 }
        // Conjoining Hangul vowels and finals draw inside the leading consonant's cell.
        if Utf8proc.isConjoiningJamo(scalar) { return 0 }
        // Drawn visibly by wcwidth-based terminals: the soft hyphen and the prepended
        // concatenation marks (Arabic number sign and the like).
        if isVisibleFormat(value) { return 1 }
        if scalar.properties.isEmojiPresentation || isWiderThanUnicode15(value) { return 2 }
        return Utf8proc.charWidth(scalar)
    }

    private static func isVisibleFormat(_ value: UInt32) -> Bool {
        switch value {
        case 0xAD, 0x0600...0x0605, 0x06DD, 0x070F, 0x0890...0x0891, 0x08E2, 0x110BD, 0x110CD: true
        default: false
        }
    }

    private static func isEmojiCluster(_ scalars: [Unicode.Scalar]) -> Bool {
        guard let first = scalars.first else { return false }
        let properties = first.properties
        if properties.isEmojiPresentation { return true }
        guard properties.isEmoji else { return false }
        var hasSequenceMark = false
        for scalar in scalars.dropFirst() {
            switch scalar.value {
            case 0xFE0F: hasSequenceMark = true
            // A ZWJ only joins emoji: ASCII digits, `#` and `*` are "emoji" for keycaps alone.
            case 0x200D where first.value > 0x7F: hasSequenceMark = true
            default: if scalar.properties.isEmojiModifier { hasSequenceMark = true }
            }
        }
        return hasSequenceMark
    }

    /// Blocks utf8proc 2.8 (Unicode 15) counts 1 that glibc 2.36's `wcwidth` or Unicode 16 draw
    /// wide: U+3248–324F, the trigrams and digrams, the Yijing hexagrams, Tai Xuan Jing and
    /// counting rods; and the unassigned code points of planes 2 and 3, which EastAsianWidth.txt
    /// already counts wide (utf8proc gives unassigned ones 1). Emoji added since are caught by
    /// `isEmojiPresentation`, which the standard library keeps current.
    static let widerThanUnicode15: [ClosedRange<UInt32>] = [
        0x2630...0x2637, 0x268A...0x268F, 0x3248...0x324F, 0x4DC0...0x4DFF, 0x1D300...0x1D356, 0x1D360...0x1D376,
        0x20000...0x3FFFD,
    ]

    private static func isWiderThanUnicode15(_ value: UInt32) -> Bool {
        guard value >= 0x2630 else { return false }
        return widerThanUnicode15.contains { $0.contains(value) }
    }
}
