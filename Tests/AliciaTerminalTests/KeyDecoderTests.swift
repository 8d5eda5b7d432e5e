import Testing
@testable import AliciaTerminal

/// Bytes and the keys they must decode to.
struct DecodingCase: Sendable, CustomTestStringConvertible {
    var name: String
    var bytes: [UInt8]
    var keys: [Key]

    init(_ name: String, _ bytes: [UInt8], _ keys: [Key]) {
        self.name = name
        self.bytes = bytes
        self.keys = keys
    }

    init(_ name: String, _ text: String, _ keys: [Key]) {
        self.init(name, Array(text.utf8), keys)
    }

    var testDescription: String { name }
}

@Suite struct KeyDecoderTests {
    static let esc = "\u{1B}"

    static let cases: [DecodingCase] = [
        // Text
        DecodingCase("ASCII letters", "ab", [.character("a"), .character("b")]),
        DecodingCase("space and tilde", " ~", [.character(" "), .character("~")]),
        DecodingCase("two-byte UTF-8", "é", [.character("é")]),
        DecodingCase("three-byte UTF-8", "日本", [.character("日"), .character("本")]),
        DecodingCase("four-byte UTF-8", "😀", [.character("😀")]),
        DecodingCase("emoji with skin tone, one key per scalar", "👍🏽", [.character("👍"), .character("🏽")]),
        DecodingCase(
            "ZWJ family, one key per scalar", "👨‍👩‍👧",
            [.character("👨"), .character("\u{200D}"), .character("👩"), .character("\u{200D}"), .character("👧")]
        ),
        DecodingCase("decomposed accent", "e\u{301}", [.character("e"), .character("\u{301}")]),
        // Editing keys and controls
        DecodingCase("CR is Enter", [0x0D], [.enter]),
        DecodingCase("LF is Enter", [0x0A], [.enter]),
        DecodingCase("Tab", [0x09], [.tab]),
        DecodingCase("DEL is Backspace", [0x7F], [.backspace]),
        DecodingCase("BS is Backspace", [0x08], [.backspace]),
        DecodingCase("ctrl-a", [0x01], [.control("a")]),
        DecodingCase("ctrl-c", [0x03], [.control("c")]),
        DecodingCase("ctrl-d", [0x04], [.control("d")]),
        DecodingCase("ctrl-l", [0x0C], [.control("l")]),
        DecodingCase("ctrl-u", [0x15], [.control("u")]),
        DecodingCase("ctrl-w", [0x17], [.control("w")]),
        DecodingCase("ctrl-z", [0x1A], [.control("z")]),
        DecodingCase("ctrl-space", [0x00], [.control("@")]),
        DecodingCase("ctrl-backslash", [0x1C], [.control("\\")]),
        DecodingCase("ctrl-underscore", [0x1F], [.control("_")]),
        // CSI and SS3 cursor keys
        DecodingCase("CSI up", esc + "[A", [.up]),
        DecodingCase("CSI down", esc + "[B", [.down]),
        DecodingCase("CSI right", esc + "[C", [.right]),
        DecodingCase("CSI left", esc + "[D", [.left]),
        DecodingCase("SS3 up", esc + "OA", [.up]),
        DecodingCase("SS3 down", esc + "OB", [.down]),
        DecodingCase("SS3 right", esc + "OC", [.right]),
        DecodingCase("SS3 left", esc + "OD", [.left]),
        DecodingCase("CSI home", esc + "[H", [.home]),
        DecodingCase("CSI end", esc + "[F", [.end]),
        DecodingCase("SS3 home", esc + "OH", [.home]),
        DecodingCase("SS3 end", esc + "OF", [.end]),
        DecodingCase("CSI 1~ home", esc + "[1~", [.home]),
        DecodingCase("CSI 7~ home (rxvt)", esc + "[7~", [.home]),
        DecodingCase("CSI 4~ end", esc + "[4~", [.end]),
        DecodingCase("CSI 8~ end (rxvt)", esc + "[8~", [.end]),
        DecodingCase("page up", esc + "[5~", [.pageUp]),
        DecodingCase("page down", esc + "[6~", [.pageDown]),
        DecodingCase("delete", esc + "[3~", [.delete]),
        DecodingCase("ctrl-delete decodes as delete", esc + "[3;5~", [.delete]),
        DecodingCase("ctrl-right decodes as right", esc + "[1;5C", [.right]),
        DecodingCase("shift-up decodes as up", esc + "[1;2A", [.up]),
        DecodingCase("SS3 with modifier", esc + "O5D", [.left]),
        DecodingCase("shift-tab", esc + "[Z", [.backTab]),
        DecodingCase("keypad enter", esc + "OM", [.enter]),
        // Sequences swallowed whole
        DecodingCase("insert", esc + "[2~", []),
        DecodingCase("F5", esc + "[15~", []),
        DecodingCase("F12 with modifier", esc + "[24;5~", []),
        DecodingCase("F1 as SS3", esc + "OP", []),
        DecodingCase("F1 as CSI with modifier", esc + "[1;5P", []),
        DecodingCase("Linux console F1", esc + "[[A", []),
        DecodingCase("device attributes reply", esc + "[?62;22c", []),
        DecodingCase("SGR mouse report", esc + "[<0;10;5M", []),
        DecodingCase("focus in", esc + "[I", []),
        DecodingCase("sequence with an intermediate", esc + "[1 q", []),
        DecodingCase("kitty keyboard report", esc + "[97;5u", []),
        DecodingCase("a runaway parameter list", esc + "[" + String(repeating: "1;", count: 40) + "A", [.up]),
        DecodingCase("stray paste end", esc + "[201~", []),
        // Escape and Alt
        DecodingCase("alt-x", esc + "x", [.alt("x")]),
        DecodingCase("alt-shift-a", esc + "A", [.alt("A")]),
        DecodingCase("escape then a sequence", esc + esc + "[A", [.escape, .up]),
        DecodingCase("escape before Enter", esc + "\r", [.escape, .enter]),
        DecodingCase("escape before UTF-8", esc + "é", [.escape, .character("é")]),
        DecodingCase("a control cuts a sequence short", esc + "[1\u{03}", [.control("c")]),
        DecodingCase("a bare CSI cut short is alt-[", esc + "[\u{7F}", [.alt("["), .backspace]),
        DecodingCase("a bare SS3 cut short is alt-O", esc + "O\r", [.alt("O"), .enter]),
        DecodingCase("ESC cuts a sequence short", esc + "[1" + esc + "[B", [.down]),
        // Mixed
        DecodingCase(
            "text around keys", "ab" + esc + "[Ac" + esc + "[3~d",
            [.character("a"), .character("b"), .up, .character("c"), .delete, .character("d")]
        ),
        DecodingCase("keys back to back", esc + "[A" + esc + "OB" + esc + "[5~", [.up, .down, .pageUp]),
        // Bracketed paste
        DecodingCase("paste", esc + "[200~hello" + esc + "[201~", [.paste("hello")]),
        DecodingCase("paste with CR LF and CR", esc + "[200~a\r\nb\rc\nd" + esc + "[201~", [.paste("a\nb\nc\nd")]),
        DecodingCase("paste of UTF-8", esc + "[200~日本 👨‍👩‍👧" + esc + "[201~", [.paste("日本 👨‍👩‍👧")]),
        DecodingCase("paste holding escape sequences", esc + "[200~" + esc + "[A" + esc + "x" + esc + "[201~", [.paste(esc + "[A" + esc + "x")]),
        DecodingCase("paste holding half an end marker", esc + "[200~" + esc + "[20x" + esc + "[201~", [.paste(esc + "[20x")]),
        DecodingCase("paste holding ESC ESC", esc + "[200~" + esc + esc + esc + "[201~", [.paste(esc + esc)]),
        DecodingCase("paste holding ESC", esc + "[200~" + esc + esc + "[201~", [.paste(esc)]),
        DecodingCase("empty paste", esc + "[200~" + esc + "[201~", [.paste("")]),
        DecodingCase("keys after a paste", esc + "[200~x" + esc + "[201~\r", [.paste("x"), .enter]),
        // Ill-formed UTF-8
        DecodingCase("stray continuation byte", [0x80, 0x61], [.character("\u{FFFD}"), .character("a")]),
        DecodingCase("invalid lead byte", [0xFF], [.character("\u{FFFD}")]),
        DecodingCase("overlong two-byte form", [0xC0, 0xAF], [.character("\u{FFFD}"), .character("\u{FFFD}")]),
        DecodingCase("truncated sequence", [0xC3, 0x61], [.character("\u{FFFD}"), .character("a")]),
        DecodingCase("truncated before a key", [0xE6, 0x97, 0x1B, 0x5B, 0x41], [.character("\u{FFFD}"), .up]),
        DecodingCase(
            "encoded surrogate", [0xED, 0xA0, 0x80],
            [.character("\u{FFFD}"), .character("\u{FFFD}"), .character("\u{FFFD}")]
        ),
        DecodingCase("past U+10FFFF", [0xF4, 0x90, 0x80, 0x80], Array(repeating: .character("\u{FFFD}"), count: 4)),
    ]

    /// Guards the front ends' shared wait: a lone ESC is Escape only once 50 ms passed without more.
    @Test func aLoneEscapeWaitsItsFiftyMillisecondsThenIsEscape() {
        var decoder = KeyDecoder()
        #expect(decoder.flush(at: 5).isEmpty && decoder.pendingSince == nil)
        #expect(decoder.feed([0x1B]).isEmpty)
        #expect(decoder.flush(at: 10).isEmpty && decoder.pendingDeadline == 10 + KeyDecoder.escapeWait)
        #expect(decoder.flush(at: 10.04).isEmpty && decoder.pendingSince == 10)
        #expect(decoder.flush(at: 10.1) == [.escape])
        #expect(decoder.pendingSince == nil && !decoder.hasPendingInput)
        #expect(decoder.feed([0x1B]).isEmpty && decoder.flush(at: 11).isEmpty)
        #expect(decoder.feed(Array("[A".utf8)) == [.up] && decoder.flush(at: 11.01).isEmpty && decoder.pendingSince == nil)
    }

    @Test(arguments: cases)
    func decodesInOneRead(_ example: DecodingCase) {
        var decoder = KeyDecoder()
        #expect(decoder.feed(example.bytes) == example.keys)
        #expect(!decoder.hasPendingInput)
        #expect(decoder.flush() == [])
    }

    @Test(arguments: cases)
    func decodesTheSameSplitAtEveryByteBoundary(_ example: DecodingCase) {
        for split in 0...example.bytes.count {
            var decoder = KeyDecoder()
            let keys = decoder.feed(example.bytes[..<split]) + decoder.feed(example.bytes[split...])
            #expect(keys == example.keys, "split at \(split)")
        }
    }

    @Test(arguments: cases)
    func decodesTheSameOneByteAtATime(_ example: DecodingCase) {
        var decoder = KeyDecoder()
        let keys = example.bytes.flatMap { decoder.feed([$0]) }
        #expect(keys == example.keys)
    }

    /// Every way of cutting the bytes into reads (all 2^(n-1) of them for
    /// short inputs) decodes the same.
    @Test(arguments: cases.filter { $0.bytes.count <= 12 })
    func decodesTheSameUnderEveryPartition(_ example: DecodingCase) {
        let count = example.bytes.count
        guard count > 1 else { return }
        for cuts in 0..<(1 << (count - 1)) {
            var decoder = KeyDecoder()
            var keys: [Key] = []
            var start = 0
            for boundary in 1...count where boundary == count || cuts & (1 << (boundary - 1)) != 0 {
                keys += decoder.feed(example.bytes[start..<boundary])
                start = boundary
            }
            #expect(keys == example.keys, "cuts \(String(cuts, radix: 2))")
        }
    }

    /// Random printable and high bytes decode exactly as the standard
    /// library's UTF-8 decoder repairs them.
    @Test(arguments: 0..<20)
    func decodesTextLikeTheStandardLibrary(seed: Int) {
        var random = TestRandom(seed: UInt64(seed))
        let bytes = (0..<200).map { _ -> UInt8 in
            switch Int.random(in: 0..<4, using: &random) {
            case 0: UInt8.random(in: 0x20...0x7E, using: &random)
            case 1: UInt8.random(in: 0x80...0xBF, using: &random)
            default: UInt8.random(in: 0xC0...0xFF, using: &random)
            }
        }
        var decoder = KeyDecoder()
        let keys = decoder.feed(bytes) + decoder.flush()
        let expected = String(decoding: bytes, as: UTF8.self).unicodeScalars.map { Key.character(Character($0)) }
        #expect(keys == expected)
    }

    @Test(arguments: [
        DecodingCase("lone ESC", esc, [.escape]),
        DecodingCase("ESC [", esc + "[", [.alt("[")]),
        DecodingCase("ESC O", esc + "O", [.alt("O")]),
        DecodingCase("unfinished CSI", esc + "[1;5", []),
        DecodingCase("unfinished SS3", esc + "O5", []),
        DecodingCase("unfinished Linux F-key", esc + "[[", []),
        DecodingCase("text then ESC", "q" + esc, [.character("q"), .escape]),
        DecodingCase("cut UTF-8", [0xF0, 0x9F, 0x98], [.character("\u{FFFD}")]),
    ])
    func flushResolvesWhatIsPending(_ example: DecodingCase) {
        var decoder = KeyDecoder()
        let fed = decoder.feed(example.bytes)
        #expect(decoder.hasPendingInput)
        #expect(fed + decoder.flush() == example.keys)
        #expect(!decoder.hasPendingInput)
        #expect(decoder.feed(Array("x".utf8)) == [.character("x")])
    }

    @Test func flushNeverCutsAPasteShort() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(Array("\u{1B}[200~part one".utf8)) == [])
        #expect(decoder.flush() == [])
        #expect(decoder.hasPendingInput)
        #expect(decoder.feed(Array(" and two\u{1B}[20".utf8)) == [])
        #expect(decoder.flush() == [])
        #expect(decoder.feed(Array("1~".utf8)) == [.paste("part one and two")])
        #expect(!decoder.hasPendingInput)
    }

    @Test func aLargePasteArrivesWhole() {
        let text = String(repeating: "0123456789abcdef", count: 10_000)
        var decoder = KeyDecoder()
        var keys = decoder.feed(Array("\u{1B}[200~".utf8))
        let bytes = Array(text.utf8)
        for start in stride(from: 0, to: bytes.count, by: 4096) {
            keys += decoder.feed(bytes[start..<min(start + 4096, bytes.count)])
        }
        keys += decoder.feed(Array("\u{1B}[201~".utf8))
        #expect(keys == [.paste(text)])
    }

    @Test func nothingPendingAtRest() {
        var decoder = KeyDecoder()
        #expect(!decoder.hasPendingInput)
        #expect(decoder.feed([UInt8]()) == [])
        #expect(decoder.flush() == [])
    }
}
