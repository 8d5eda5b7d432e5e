import Testing
@testable import AliciaTerminal

@Suite struct DisplayWidthTests {
    @Test(arguments: [
        // ASCII and controls
        ("", 0), ("a", 1), ("hello", 5), (" ", 1), ("~", 1),
        ("\t", 0), ("\u{1B}", 0), ("\u{7F}", 0), ("\r\n", 0), ("\u{85}", 0),
        // Latin, Greek, Cyrillic, ambiguous-width symbols
        ("é", 1), ("Ω", 1), ("Ж", 1), ("©", 1), ("½", 1), ("…", 1), ("→", 1),
        // Combining and format characters
        ("e\u{301}", 1), ("e\u{301}\u{323}", 1), ("\u{301}", 0), ("\u{200B}", 0), ("\u{200D}", 0),
        ("\u{FEFF}", 0), ("\u{2060}", 0), ("a\u{FE0F}", 1), ("\u{00AD}", 1), ("\u{0600}1", 2),
        // East Asian wide and fullwidth
        ("日", 2), ("日本語", 6), ("中文abc", 7), ("한국어", 6), ("かな", 4), ("カナ", 4),
        ("ｱ", 1), ("Ａ", 2), ("ｈｅｌｌｏ", 10), ("\u{3000}", 2), ("、", 2), ("𠀋", 2), ("\u{4DC0}", 2),
        // Hangul: precomposed and conjoining jamo
        ("각", 2), ("\u{1100}\u{1161}\u{11A8}", 2),
        // Emoji
        ("😀", 2), ("⌚", 2), ("🫨", 2), ("👍🏽", 2), ("☝🏽", 2), ("👨‍👩‍👧", 2), ("👩🏽‍💻", 2),
        ("🏳️‍🌈", 2), ("❤️‍🔥", 2), ("👁‍🗨", 2), ("🇫🇷", 2), ("🇫🇷🇩🇪", 4), ("🏴󠁧󠁢󠁳󠁣󠁴󠁿", 2),
        ("❤️", 2), ("❤", 1), ("☀️", 2), ("☀", 1), ("1️⃣", 2), ("#️⃣", 2), ("1", 1), ("©️", 2),
        ("😀\u{FE0E}", 2),
        // Indic conjunct: one cluster, drawn as two cells by terminals
        ("क्ष", 2),
        // Mixed
        ("a日😀e\u{301}", 6),
    ])
    func measures(text: String, columns: Int) {
        #expect(DisplayWidth.of(text) == columns)
    }

    @Test(arguments: ["a", "日", "😀", "👨‍👩‍👧", "e\u{301}", "\u{301}", "\t", "🇫🇷"])
    func aCharacterMeasuresAsItsString(text: String) throws {
        let character = try #require(text.first)
        #expect(DisplayWidth.of(character) == DisplayWidth.of(text))
    }

    @Test(arguments: [
        ("abc", 5, "abc  "), ("abc", 3, "abc"), ("abcd", 3, "ab…"), ("abc", 1, "…"), ("abc", 0, ""),
        ("", 3, "   "), ("日本語", 6, "日本語"), ("日本語", 5, "日本…"), ("日本語", 4, "日… "),
        ("日本語", 2, "… "), ("日", 1, "…"), ("😀x", 2, "… "), ("a😀", 3, "a😀"),
        ("e\u{301}e\u{301}e\u{301}", 2, "e\u{301}…"), ("ab", -1, ""),
    ])
    func pads(text: String, width: Int, expected: String) {
        #expect(DisplayWidth.pad(text, to: width) == expected)
    }

    @Test(arguments: [
        ("abc", 5, "abc"), ("abc", 3, "abc"), ("abcd", 3, "ab…"), ("abc", 1, "…"), ("abc", 0, ""),
        ("日本語", 5, "日本…"), ("日本語", 4, "日…"), ("👨‍👩‍👧👨‍👩‍👧", 3, "👨‍👩‍👧…"),
    ])
    func truncates(text: String, width: Int, expected: String) {
        #expect(DisplayWidth.truncate(text, to: width) == expected)
    }

    static let samples = [
        "", "a", "hello world", "日本語のテキスト", "mixed 日本 and 😀 emoji", "e\u{301}e\u{301}",
        "👨‍👩‍👧 family", "🇫🇷🇩🇪🇮🇹", "ｈｅｌｌｏ", "a\u{200B}b", "क्षत्रिय",
    ]

    /// `pad` always fills exactly, `truncate` never overflows, and text that
    /// fits is left alone.
    @Test(arguments: samples)
    func padAndTruncateKeepTheirWidth(text: String) {
        for width in 0...30 {
            let padded = DisplayWidth.pad(text, to: width)
            let truncated = DisplayWidth.truncate(text, to: width)
            #expect(DisplayWidth.of(padded) == width, "width \(width)")
            #expect(DisplayWidth.of(truncated) <= width, "width \(width)")
            if DisplayWidth.of(text) <= width {
                #expect(truncated == text)
            } else if width > 0 {
                #expect(truncated.hasSuffix("…"))
                #expect(text.hasPrefix(truncated.dropLast()))
            }
        }
    }

    @Test func theSupplementIsSortedAndDisjoint() {
        let ranges = DisplayWidth.widerThanUnicode15
        for (earlier, later) in zip(ranges, ranges.dropFirst()) {
            #expect(earlier.upperBound < later.lowerBound, "\(earlier) then \(later)")
        }
    }

    /// Every scalar has a width of 0, 1 or 2, the supplement's edges are wide, and utf8proc's own
    /// table answers for the rest (wide CJK, fullwidth forms and Hangul syllables at their edges).
    @Test func everyScalarHasASaneWidth() {
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            #expect((0...2).contains(DisplayWidth.of(scalar)))
        }
        for range in DisplayWidth.widerThanUnicode15 {
            for value in [range.lowerBound, range.upperBound] {
                guard let scalar = Unicode.Scalar(value) else { continue }
                #expect(DisplayWidth.of(scalar) == 2, "U+\(String(value, radix: 16))")
            }
        }
        for value: UInt32 in [0x1100, 0x115F, 0x4E00, 0x9FFF, 0xAC00, 0xD7A3, 0xFF01, 0xFF60, 0x20000, 0x2FFFD] {
            guard let scalar = Unicode.Scalar(value) else { continue }
            #expect(DisplayWidth.of(scalar) == 2, "U+\(String(value, radix: 16))")
        }
    }
}
