/// What libxml2 is given instead of the document's own bytes: the same markup with the mistakes
/// real feeds make repaired, so that recovery mode never has to guess (where it guesses, it drops
/// the rest of an element, or the rest of the feed). Done the way feedparser's loose parser and
/// the browsers read such feeds:
/// - an entity XML does not define (`&nbsp;`, `&eacute;`, `&mdash;`: HTML's names, undeclared in a
///   feed) becomes a numeric reference to the character HTML gives it; an unknown name and a bare
///   `&` (`Q&A`) become `&amp;`, and a `<` that starts no tag (`1 < 2`, or in an attribute value)
///   `&lt;`, so the text reads as written;
/// - a tag keeps at most `maximumAttributes` attributes (libxml2 2.9's attribute check is
///   quadratic);
/// - a numeric reference to 128-159 becomes the windows-1252 character it was meant as, and one to
///   a non-character becomes U+FFFD;
/// - bytes that are not UTF-8 become U+FFFD, and C0 control characters (forbidden in XML 1.0) a
///   space;
/// - anything before the first `<` (white space, a byte order mark, a stray PHP notice) is left out.
/// Entities the document declares itself (its internal DTD subset) are left alone for libxml2, and
/// so are comments, CDATA sections, processing instructions and the DOCTYPE. The output goes to
/// `emit` in chunks of about `chunkSize` bytes, so that a large feed is never held twice.
struct MarkupRepair {
    static let chunkSize = 64 * 1024
    /// Entity names are short; a longer run after `&` is text, not a reference.
    static let maximumNameLength = 32

    /// What was repaired, for the feed's warnings.
    struct Counts: Equatable {
        var entities = 0
        var ampersands = 0
        var lessThans = 0
        var invalidBytes = 0
        var controlCharacters = 0
    }

    private(set) var counts = Counts()
    /// Names declared by `<!ENTITY name …>` in the internal subset.
    private(set) var declared: Set<String> = []
    private var out: [UInt8] = []

    init() {
        out.reserveCapacity(Self.chunkSize + 64)
    }

    /// Repairs the whole of `input` (UTF-8, perhaps with bad bytes), handing the output to `emit`
    /// chunk by chunk.
    mutating func run(_ input: UnsafeBufferPointer<UInt8>, emit: (UnsafeBufferPointer<UInt8>) -> Void) {
        var at = input.firstIndex(of: UInt8(ascii: "<")) ?? input.count
        while at < input.count {
            flushIfFull(emit)
            let byte = input[at]
            if byte == UInt8(ascii: "<") {
                at = markup(input, at, emit)
            } else if byte == UInt8(ascii: "&") {
                at = reference(input, at)
            } else {
                at = plainRun(input, at)
            }
        }
        flush(emit)
    }

    /// The length of the run from `start` of bytes that copy as they are: printable ASCII, tab
    /// and line ends, other than `stop`.
    private static func asciiRun(_ input: UnsafeBufferPointer<UInt8>, from start: Int, stop: UInt8, stopToo: UInt8) -> Int {
        var end = start
        while end < input.count {
            let byte = input[end]
            guard byte < 0x80, byte >= 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D, byte != stop, byte != stopToo else { break }
            end += 1
        }
        return end - start
    }

    // MARK: Text

    /// Copies ordinary characters up to the next `<` or `&`, repairing bad bytes.
    private mutating func plainRun(_ input: UnsafeBufferPointer<UInt8>, _ start: Int) -> Int {
        var at = start
        while at < input.count {
            let byte = input[at]
            if byte == UInt8(ascii: "<") || byte == UInt8(ascii: "&") { break }
            let run = Self.asciiRun(input, from: at, stop: UInt8(ascii: "<"), stopToo: UInt8(ascii: "&"))
            if run > 0 {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: input[at..<(at + run)]))
                at += run
            } else {
                at = character(input, at)
            }
            if out.count >= Self.chunkSize { break }
        }
        return at
    }

    /// Copies one character at `at`: a control character becomes a space, a byte that does not
    /// start a well-formed UTF-8 sequence (or one XML forbids, U+FFFE and U+FFFF) U+FFFD.
    private mutating func character(_ input: UnsafeBufferPointer<UInt8>, _ at: Int) -> Int {
        let byte = input[at]
        if byte < 0x80 {
            if byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D {
                out.append(0x20)
                counts.controlCharacters += 1
            } else {
                out.append(byte)
            }
            return at + 1
        }
        let length = Self.sequenceLength(input, at)
        if length > 0 {
            out.append(contentsOf: UnsafeBufferPointer(rebasing: input[at..<(at + length)]))
            return at + length
        }
        out.append(contentsOf: [0xEF, 0xBF, 0xBD])
        counts.invalidBytes += 1
        return at + max(1, -length)
    }

    /// The length of the well-formed UTF-8 sequence at `at` (2-4), or minus the length of the
    /// broken one to replace by a single U+FFFD (Unicode's "maximal subpart"), or 0 for one byte.
    static func sequenceLength(_ input: UnsafeBufferPointer<UInt8>, _ at: Int) -> Int {
        let lead = input[at]
        let length: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: return 0
        }
        var index = 1
        while index < length {
            guard at + index < input.count else { return -index }
            let byte = input[at + index]
            let (min, max) = index == 1 ? (low, high) : (UInt8(0x80), UInt8(0xBF))
            guard byte >= min && byte <= max else { return -index }
            index += 1
        }
        if lead == 0xEF && input[at + 1] == 0xBF && input[at + 2] >= 0xBE { return -3 }
        return length
    }

    // MARK: References

    /// At `&`: a reference kept, rewritten as a numeric one, or the `&` escaped.
    private mutating func reference(_ input: UnsafeBufferPointer<UInt8>, _ at: Int) -> Int {
        var end = at + 1
        let numeric = end < input.count && input[end] == UInt8(ascii: "#")
        if numeric { end += 1 }
        let hex = numeric && end < input.count && (input[end] | 0x20) == UInt8(ascii: "x")
        if hex { end += 1 }
        let nameStart = end
        while end < input.count, end - nameStart <= Self.maximumNameLength, Self.isNameByte(input[end], numeric: numeric, hex: hex) {
            end += 1
        }
        guard end > nameStart, end < input.count, input[end] == UInt8(ascii: ";") else { return escapeAmpersand(at) }
        let name = UnsafeBufferPointer(rebasing: input[nameStart..<end])
        if numeric {
            return numericReference(name, hex: hex, rawStart: at, rawEnd: end + 1, input) ?? escapeAmpersand(at)
        }
        guard let first = name.first, Self.isNameStart(first) else { return escapeAmpersand(at) }
        let text = String(decoding: name, as: UTF8.self)
        if ["amp", "lt", "gt", "quot", "apos"].contains(text) || declared.contains(text) {
            out.append(contentsOf: UnsafeBufferPointer(rebasing: input[at...end]))
        } else if let scalar = HTMLEntity.scalar(named: text) {
            appendCharacterReference(scalar.value)
            counts.entities += 1
        } else {
            return escapeAmpersand(at)
        }
        return end + 1
    }

    /// `&#…;`: kept when it names a character XML allows, rewritten when it does not.
    private mutating func numericReference(_ digits: UnsafeBufferPointer<UInt8>, hex: Bool, rawStart: Int, rawEnd: Int,
                                  _ input: UnsafeBufferPointer<UInt8>) -> Int? {
        guard digits.count <= 8 else { return nil }
        var code: UInt32 = 0
        for digit in digits {
            guard let value = Self.digitValue(digit, hex: hex) else { return nil }
            code = code * (hex ? 16 : 10) + value
        }
        // XML spells hexadecimal references `&#x`, never `&#X`.
        let spelledRight = !hex || input[rawStart + 2] == UInt8(ascii: "x")
        if Self.isXMLCharacter(code) && !(0x80...0x9F).contains(code) && spelledRight {
            out.append(contentsOf: UnsafeBufferPointer(rebasing: input[rawStart..<rawEnd]))
        } else if Self.isXMLCharacter(code) && !(0x80...0x9F).contains(code) {
            appendCharacterReference(code)
        } else {
            let scalar = HTMLEntity.scalar(code: code).value
            appendCharacterReference(Self.isXMLCharacter(scalar) ? scalar : 0xFFFD)
            counts.entities += 1
        }
        return rawEnd
    }

    private mutating func escapeAmpersand(_ at: Int) -> Int {
        out.append(contentsOf: Array("&amp;".utf8))
        counts.ampersands += 1
        return at + 1
    }

    private mutating func appendCharacterReference(_ code: UInt32) {
        out.append(contentsOf: Array("&#\(code);".utf8))
    }

    static func isNameStart(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":")
    }

    static func isNameByte(_ byte: UInt8, numeric: Bool, hex: Bool) -> Bool {
        if numeric { return digitValue(byte, hex: hex) != nil }
        return isNameStart(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: ".") || byte >= 0x80
    }

    static func digitValue(_ byte: UInt8, hex: Bool) -> UInt32? {
        if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") { return UInt32(byte - UInt8(ascii: "0")) }
        let lower = byte | 0x20
        if hex && lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "f") { return UInt32(lower - UInt8(ascii: "a") + 10) }
        return nil
    }

    /// XML 1.0's Char production.
    static func isXMLCharacter(_ code: UInt32) -> Bool {
        code == 0x9 || code == 0xA || code == 0xD || (0x20...0xD7FF).contains(code) || (0xE000...0xFFFD).contains(code)
            || (0x10000...0x10FFFF).contains(code)
    }

    // MARK: Markup

    /// At `<`: comments, CDATA, processing instructions and the DOCTYPE copied whole (no
    /// reference in them is touched); a tag through its `>` (`tag`); a `<` that starts none of
    /// these (`a < b`) escaped, as a bare `&` is.
    private mutating func markup(_ input: UnsafeBufferPointer<UInt8>, _ at: Int, _ emit: (UnsafeBufferPointer<UInt8>) -> Void) -> Int {
        let next = at + 1 < input.count ? input[at + 1] : 0
        if Self.isNameStart(next) || next == UInt8(ascii: "/") || next >= 0x80 { return tag(input, at) }
        if next == UInt8(ascii: "?") { return copy(input, from: at, opener: 2, through: "?>", emit) }
        if next == UInt8(ascii: "!") {
            if Self.matches(input, at, "<!--") { return copy(input, from: at, opener: 4, through: "-->", emit) }
            if Self.matches(input, at, "<![CDATA[") { return copy(input, from: at, opener: 9, through: "]]>", emit) }
            if Self.matches(input, at, "<!DOCTYPE", ignoringCase: true) { return doctype(input, at, emit) }
            out.append(UInt8(ascii: "<"))
            return at + 1
        }
        out.append(contentsOf: Array("&lt;".utf8))
        counts.lessThans += 1
        return at + 1
    }

    /// Attributes one tag may keep: libxml2 2.9 checks each attribute against every earlier one,
    /// so 50,000 of them took 22 s to parse; feeds' tags have a handful.
    static let maximumAttributes = 256

    /// Copies a start or end tag through its `>`, repairing its attribute values (references, a
    /// `<` in a value escaped), and leaving out the attributes past `maximumAttributes`. A tag cut
    /// short by another `<` ends there, for libxml2 to recover from.
    private mutating func tag(_ input: UnsafeBufferPointer<UInt8>, _ start: Int) -> Int {
        out.append(UInt8(ascii: "<"))
        var at = start + 1
        var quote: UInt8?
        var attributes = 0
        var dropping = false
        var attributeStart = out.count
        while at < input.count {
            let byte = input[at]
            if let open = quote {
                if byte == open { quote = nil }
                if !dropping && byte == UInt8(ascii: "&") {
                    at = reference(input, at)
                    continue
                }
                if !dropping && byte == UInt8(ascii: "<") {
                    out.append(contentsOf: Array("&lt;".utf8))
                    counts.lessThans += 1
                    at += 1
                    continue
                }
            } else if byte == UInt8(ascii: ">") {
                if dropping && input[at - 1] == UInt8(ascii: "/") { out.append(UInt8(ascii: "/")) }
                out.append(byte)
                return at + 1
            } else if byte == UInt8(ascii: "<") {
                return at
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "=") {
                attributes += 1
                if attributes > Self.maximumAttributes && !dropping {
                    dropping = true
                    out.removeSubrange(attributeStart...)
                }
            } else if Charset.isSpace(byte) && !dropping {
                attributeStart = out.count
            }
            if dropping {
                at += 1
            } else if byte >= 0x20 && byte < 0x80 {
                out.append(byte)
                at += 1
            } else {
                at = character(input, at)
            }
        }
        return at
    }

    /// Copies from `start` (an ASCII opener of `opener` bytes, already matched) through the first
    /// `terminator` after it, or to the end.
    private mutating func copy(_ input: UnsafeBufferPointer<UInt8>, from start: Int, opener: Int, through terminator: String,
                               _ emit: (UnsafeBufferPointer<UInt8>) -> Void) -> Int {
        let closing = Array(terminator.utf8)
        out.append(contentsOf: UnsafeBufferPointer(rebasing: input[start..<(start + opener)]))
        var at = start + opener
        while at < input.count {
            let run = Self.asciiRun(input, from: at, stop: closing[0], stopToo: closing[0])
            if run > 0 {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: input[at..<(at + run)]))
                at += run
            } else if input[at] == closing[0], Self.matches(input, at, terminator) {
                out.append(contentsOf: closing)
                return at + closing.count
            } else {
                at = character(input, at)
            }
            flushIfFull(emit)
        }
        return at
    }

    /// Copies the DOCTYPE through its closing `>`, noting the general entities its internal subset
    /// declares.
    private mutating func doctype(_ input: UnsafeBufferPointer<UInt8>, _ start: Int, _ emit: (UnsafeBufferPointer<UInt8>) -> Void) -> Int {
        var at = start + 9
        out.append(contentsOf: Array("<!DOCTYPE".utf8))
        var quote: UInt8?
        var depth = 0
        while at < input.count {
            let byte = input[at]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "[") {
                depth += 1
            } else if byte == UInt8(ascii: "]") {
                depth = max(0, depth - 1)
            } else if byte == UInt8(ascii: ">") && depth == 0 {
                out.append(byte)
                return at + 1
            } else if depth > 0 && Self.matches(input, at, "<!--") {
                at = copy(input, from: at, opener: 4, through: "-->", emit)
                continue
            } else if depth > 0 && Self.matches(input, at, "<!ENTITY") {
                noteEntity(input, at + 8)
            }
            at = character(input, at)
            flushIfFull(emit)
        }
        return at
    }

    private mutating func noteEntity(_ input: UnsafeBufferPointer<UInt8>, _ start: Int) {
        var at = start
        while at < input.count, Charset.isSpace(input[at]) { at += 1 }
        guard at < input.count, input[at] != UInt8(ascii: "%") else { return }
        let nameStart = at
        while at < input.count, !Charset.isSpace(input[at]), input[at] != UInt8(ascii: "\""), input[at] != UInt8(ascii: "'"),
              at - nameStart <= Self.maximumNameLength {
            at += 1
        }
        if at > nameStart { declared.insert(String(decoding: UnsafeBufferPointer(rebasing: input[nameStart..<at]), as: UTF8.self)) }
    }

    static func matches(_ input: UnsafeBufferPointer<UInt8>, _ at: Int, _ literal: String, ignoringCase: Bool = false) -> Bool {
        var index = at
        for expected in literal.utf8 {
            guard index < input.count else { return false }
            let byte = input[index]
            guard byte == expected || (ignoringCase && (byte | 0x20) == (expected | 0x20) && expected >= UInt8(ascii: "A")) else { return false }
            index += 1
        }
        return true
    }

    // MARK: Output

    private mutating func flushIfFull(_ emit: (UnsafeBufferPointer<UInt8>) -> Void) {
        if out.count >= Self.chunkSize { flush(emit) }
    }

    private mutating func flush(_ emit: (UnsafeBufferPointer<UInt8>) -> Void) {
        guard !out.isEmpty else { return }
        out.withUnsafeBufferPointer { emit($0) }
        out.removeAll(keepingCapacity: true)
    }
}
