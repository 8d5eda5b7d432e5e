/// How many terminal columns text takes.
///
/// Terminals lay text out per code point (wcwidth), while modern ones also draw
/// emoji sequences as one glyph. The rules follow what they agree on:
/// - an emoji cluster (emoji presentation, an emoji with VS16, a ZWJ sequence,
///   a skin-tone sequence, a flag, a keycap) is one glyph two columns wide;
/// - any other cluster is the sum of its scalars, each 2 when East Asian Wide or
///   Fullwidth, 0 when a control, combining mark, format character or conjoining
///   Hangul vowel/final, else 1. Summing matches terminals on Indic conjuncts and
///   decomposed Hangul, which they do not draw as one cell.
///
/// East Asian Ambiguous counts 1 (the width outside CJK locales). Where terminals
/// disagree the wider guess wins: an emoji with VS15 still counts 2, since a
/// column too many leaves a gap but a column too few pushes the line past the
/// edge.
public enum DisplayWidth {
    public static func of(_ text: String) -> Int {
        var total = 0
        for character in text { total += of(character) }
        return total
    }

    public static func of(_ character: Character) -> Int {
        if let ascii = character.asciiValue {
            // "\r\n" is one Character with ASCII value 10: both are controls.
            return ascii >= 0x20 && ascii < 0x7F ? 1 : 0
        }
        let scalars = character.unicodeScalars
        if isEmojiCluster(scalars) { return 2 }
        var total = 0
        for scalar in scalars { total += of(scalar) }
        return total
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

    /// The columns of one scalar outside an emoji cluster.
    static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x20 || (0x7F...0x9F).contains(value) { return 0 }
        // Conjoining Hangul vowels and finals draw inside the leading consonant's cell.
        if (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value) { return 0 }
        let properties = scalar.properties
        switch properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .lineSeparator, .paragraphSeparator:
            return 0
        case .format:
            // Drawn visibly by wcwidth-based terminals: the soft hyphen and the
            // prepended concatenation marks (Arabic number sign and the like).
            return isVisibleFormat(value) ? 1 : 0
        default:
            break
        }
        if properties.isEmojiPresentation || isWide(value) { return 2 }
        return 1
    }

    private static func isVisibleFormat(_ value: UInt32) -> Bool {
        switch value {
        case 0xAD, 0x0600...0x0605, 0x06DD, 0x070F, 0x0890...0x0891, 0x08E2, 0x110BD, 0x110CD: true
        default: false
        }
    }

    private static func isEmojiCluster(_ scalars: Character.UnicodeScalarView) -> Bool {
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

    /// Whether `value` is East Asian Wide or Fullwidth.
    ///
    /// Generated from Unicode 14's EastAsianWidth.txt (W and F), with the
    /// unassigned code points inside those blocks merged in (later versions fill
    /// them with wide characters too), plus what glibc 2.36's `wcwidth` or
    /// Unicode 16 also draw wide: U+3248–324F, the Yijing hexagrams, the
    /// trigrams and digrams, Tai Xuan Jing and counting rods. Emoji added since
    /// are caught by `isEmojiPresentation`, which the standard library keeps current.
    private static func isWide(_ value: UInt32) -> Bool {
        if value < wideRanges[0].lowerBound { return false }
        var low = 0
        var high = wideRanges.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let range = wideRanges[middle]
            if value < range.lowerBound {
                high = middle - 1
            } else if value > range.upperBound {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }

    static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0,
        0x23F3...0x23F3, 0x25FD...0x25FE, 0x2614...0x2615, 0x2630...0x2637, 0x2648...0x2653,
        0x267F...0x267F, 0x268A...0x268F, 0x2693...0x2693, 0x26A1...0x26A1, 0x26AA...0x26AB,
        0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA,
        0x26F2...0x26F3, 0x26F5...0x26F5, 0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705,
        0x270A...0x270B, 0x2728...0x2728, 0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755,
        0x2757...0x2757, 0x2795...0x2797, 0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C,
        0x2B50...0x2B50, 0x2B55...0x2B55, 0x2E80...0x303E, 0x3041...0xA4C6, 0xA960...0xA97C,
        0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6B, 0xFF01...0xFF60,
        0xFFE0...0xFFE6, 0x16FE0...0x18D08, 0x1AFF0...0x1B2FB, 0x1D300...0x1D356, 0x1D360...0x1D376,
        0x1F004...0x1F004, 0x1F0CF...0x1F0CF, 0x1F18E...0x1F18E, 0x1F191...0x1F19A, 0x1F200...0x1F265,
        0x1F300...0x1F320, 0x1F32D...0x1F335, 0x1F337...0x1F37C, 0x1F37E...0x1F393, 0x1F3A0...0x1F3CA,
        0x1F3CF...0x1F3D3, 0x1F3E0...0x1F3F0, 0x1F3F4...0x1F3F4, 0x1F3F8...0x1F43E, 0x1F440...0x1F440,
        0x1F442...0x1F4FC, 0x1F4FF...0x1F53D, 0x1F54B...0x1F54E, 0x1F550...0x1F567, 0x1F57A...0x1F57A,
        0x1F595...0x1F596, 0x1F5A4...0x1F5A4, 0x1F5FB...0x1F64F, 0x1F680...0x1F6C5, 0x1F6CC...0x1F6CC,
        0x1F6D0...0x1F6D2, 0x1F6D5...0x1F6DF, 0x1F6EB...0x1F6EC, 0x1F6F4...0x1F6FC, 0x1F7E0...0x1F7F0,
        0x1F90C...0x1F93A, 0x1F93C...0x1F945, 0x1F947...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x3FFFD,
    ]
}
