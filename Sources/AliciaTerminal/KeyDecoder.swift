/// Turns the bytes of a raw-mode terminal into keys, however the reads split them.
///
/// A byte-at-a-time state machine, so a sequence split across reads decodes as
/// if it had come in one. Text is UTF-8 (ill-formed bytes become U+FFFD, as
/// `String(decoding:as:)` does). Escape sequences are read to their final byte
/// by ECMA-48's grammar, so one it does not know is swallowed whole and never
/// leaks `[` or `A` as characters. Modifiers on arrows and editing keys
/// (`ESC[1;5C`, ctrl-right) are ignored: they decode as the plain key.
///
/// ESC alone is ambiguous: it starts every sequence. When `hasPendingInput` is
/// true after a read, the caller waits ~50 ms for more bytes and calls `flush()`
/// if none came, which turns a pending ESC into `.escape` (and `ESC [` or `ESC O`
/// into Alt-`[` / Alt-`O`); `flush(at:)` after every read keeps that wait.
public struct KeyDecoder: Sendable {
    private enum State: Sendable {
        case ground
        /// Inside a multi-byte UTF-8 sequence: the bits so far, how many
        /// continuation bytes remain, and the range the next one must fall in
        /// (narrower than 80…BF after E0, ED, F0 and F4, which rules out
        /// overlong forms, surrogates and values past U+10FFFF).
        case utf8(value: UInt32, remaining: Int, next: ClosedRange<UInt8>)
        case escape
        /// After `ESC [`.
        case controlSequence
        /// After `ESC O`.
        case singleShift
        /// After the Linux console's `ESC [ [`, which one more byte ends (F1–F5).
        case consoleFunctionKey
        /// Inside a bracketed paste: how many bytes of its end marker matched so far.
        case paste(matched: Int)
    }

    private var state = State.ground
    /// Parameter bytes of the sequence being read, kept only up to a bound:
    /// no key needs more, and a runaway sequence must not grow memory.
    private var parameters: [UInt8] = []
    private var hasIntermediates = false
    private var pasted: [UInt8] = []

    private static let parameterLimit = 16
    private static let pasteEnd: [UInt8] = Array("\u{1B}[201~".utf8)

    public init() {}

    /// Whether bytes are held back waiting for the rest of a sequence: the
    /// caller should call `flush()` if nothing more arrives soon.
    public var hasPendingInput: Bool {
        if case .ground = state { return false }
        return true
    }

    /// How long an incomplete sequence (a lone ESC) waits for the rest: a terminal writes a
    /// sequence at once, so 50 ms is more than it needs and less than a person notices.
    public static let escapeWait = 0.05

    /// When what `hasPendingInput` holds began to wait, in the caller's clock (`flush(at:)`).
    public private(set) var pendingSince: Double?

    /// When `flush(at:)` decides what waits; nil when nothing does.
    public var pendingDeadline: Double? { pendingSince.map { $0 + Self.escapeWait } }

    /// After a read, at `now`: what has waited `escapeWait` for the rest of its sequence, resolved
    /// as `flush()` does; else nothing, the wait started if it had not.
    public mutating func flush(at now: Double) -> [Key] {
        guard hasPendingInput else {
            pendingSince = nil
            return []
        }
        if let since = pendingSince, now - since >= Self.escapeWait {
            pendingSince = nil
            return flush()
        }
        if pendingSince == nil { pendingSince = now }
        return []
    }

    /// The keys completed by `bytes`.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [Key] {
        var keys: [Key] = []
        for byte in bytes { consume(byte, into: &keys) }
        return keys
    }

    /// Resolves what is pending because no more bytes came: a lone ESC becomes
    /// `.escape`, `ESC [` and `ESC O` become Alt-`[` and Alt-`O`, a cut UTF-8
    /// sequence becomes U+FFFD and a cut escape sequence is dropped. A
    /// bracketed paste is never cut short: it waits for its end marker.
    public mutating func flush() -> [Key] {
        var keys: [Key] = []
        switch state {
        case .ground, .paste:
            return keys
        case .utf8:
            keys.append(.character("\u{FFFD}"))
        case .escape:
            keys.append(.escape)
        case .controlSequence, .singleShift, .consoleFunctionKey:
            abandonSequence(into: &keys)
        }
        state = .ground
        return keys
    }

    private mutating func consume(_ byte: UInt8, into keys: inout [Key]) {
        switch state {
        case .ground:
            consumeInGround(byte, into: &keys)
        case .utf8(let value, let remaining, let next):
            guard next.contains(byte) else {
                // The sequence was cut short: it becomes U+FFFD and the byte starts afresh.
                keys.append(.character("\u{FFFD}"))
                state = .ground
                consumeInGround(byte, into: &keys)
                return
            }
            let value = value << 6 | UInt32(byte & 0x3F)
            if remaining == 1 {
                state = .ground
                // The continuation ranges admit only scalar values, so the fallback never runs.
                keys.append(.character(Unicode.Scalar(value).map(Character.init) ?? "\u{FFFD}"))
            } else {
                state = .utf8(value: value, remaining: remaining - 1, next: 0x80...0xBF)
            }
        case .escape:
            consumeAfterEscape(byte, into: &keys)
        case .controlSequence:
            consumeInControlSequence(byte, into: &keys)
        case .singleShift:
            consumeInSingleShift(byte, into: &keys)
        case .consoleFunctionKey:
            state = .ground
            if !(0x40...0x7E).contains(byte) { consumeInGround(byte, into: &keys) }
        case .paste(let matched):
            consumeInPaste(byte, matched: matched, into: &keys)
        }
    }

    private mutating func consumeInGround(_ byte: UInt8, into keys: inout [Key]) {
        switch byte {
        case 0x1B:
            state = .escape
        case 0x0D, 0x0A:
            keys.append(.enter)
        case 0x09:
            keys.append(.tab)
        case 0x08, 0x7F:
            keys.append(.backspace)
        case 0x00:
            keys.append(.control("@"))
        case 0x01...0x1A:
            keys.append(.control(Character(Unicode.Scalar(byte - 1 + UInt8(ascii: "a")))))
        case 0x1C...0x1F:
            keys.append(.control(Character(Unicode.Scalar(byte - 0x1C + UInt8(ascii: "\\")))))
        case 0x20...0x7E:
            keys.append(.character(Character(Unicode.Scalar(byte))))
        case 0xC2...0xF4:
            state = Self.utf8Start(byte)
        default:
            // A stray continuation byte, C0, C1 or F5…FF: never valid UTF-8.
            keys.append(.character("\u{FFFD}"))
        }
    }

    /// The state after a UTF-8 lead byte (C2…F4): its payload bits, the continuation bytes to
    /// come, and the range the first of them must fall in (Unicode's table 3-7: narrower after
    /// E0, ED, F0 and F4, which rules out overlong forms, surrogates and values past U+10FFFF).
    private static func utf8Start(_ byte: UInt8) -> State {
        let remaining = byte >= 0xF0 ? 3 : byte >= 0xE0 ? 2 : 1
        // The lead's payload: 5 bits before one continuation byte, 4 before two, 3 before three.
        let value = UInt32(byte & (0x7F >> (remaining + 1)))
        let next: ClosedRange<UInt8> = switch byte {
        case 0xE0: 0xA0...0xBF
        case 0xED: 0x80...0x9F
        case 0xF0: 0x90...0xBF
        case 0xF4: 0x80...0x8F
        default: 0x80...0xBF
        }
        return .utf8(value: value, remaining: remaining, next: next)
    }

    private mutating func consumeAfterEscape(_ byte: UInt8, into keys: inout [Key]) {
        switch byte {
        case UInt8(ascii: "["):
            beginSequence(.controlSequence)
        case UInt8(ascii: "O"):
            beginSequence(.singleShift)
        case 0x1B:
            // The first ESC stood alone; the second may start a sequence.
            keys.append(.escape)
        case 0x20...0x7E:
            state = .ground
            keys.append(.alt(Character(Unicode.Scalar(byte))))
        default:
            state = .ground
            keys.append(.escape)
            consumeInGround(byte, into: &keys)
        }
    }

    private mutating func beginSequence(_ kind: State) {
        state = kind
        parameters.removeAll(keepingCapacity: true)
        hasIntermediates = false
    }

    private mutating func consumeInControlSequence(_ byte: UInt8, into keys: inout [Key]) {
        switch byte {
        case 0x30...0x3F:
            if parameters.count < Self.parameterLimit { parameters.append(byte) }
        case 0x20...0x2F:
            hasIntermediates = true
        case UInt8(ascii: "[") where parameters.isEmpty && !hasIntermediates:
            state = .consoleFunctionKey
        case 0x40...0x7E:
            state = .ground
            finishControlSequence(final: byte, into: &keys)
        default:
            // Not part of any sequence: what came before is dropped, the byte counts.
            abandonSequence(into: &keys)
            state = .ground
            consume(byte, into: &keys)
        }
    }

    private mutating func consumeInSingleShift(_ byte: UInt8, into keys: inout [Key]) {
        switch byte {
        case 0x30...0x3F:
            // Some terminals put modifiers here (`ESC O 5 A`).
            if parameters.count < Self.parameterLimit { parameters.append(byte) }
        case 0x40...0x7E:
            state = .ground
            if let key = Self.cursorKey(final: byte) {
                keys.append(key)
            } else if byte == UInt8(ascii: "M") {
                // The keypad's Enter in application keypad mode.
                keys.append(.enter)
            }
        default:
            abandonSequence(into: &keys)
            state = .ground
            consume(byte, into: &keys)
        }
    }

    /// What an unfinished sequence amounts to when it has to end early: only
    /// a bare `ESC [` or `ESC O` means something (Alt-`[`, Alt-`O`).
    private func abandonSequence(into keys: inout [Key]) {
        guard parameters.isEmpty, !hasIntermediates else { return }
        switch state {
        case .controlSequence: keys.append(.alt("["))
        case .singleShift: keys.append(.alt("O"))
        default: break
        }
    }

    private mutating func finishControlSequence(final: UInt8, into keys: inout [Key]) {
        // Private sequences (`ESC [ ? …`, `ESC [ < …`: mouse, focus and replies)
        // and ones with intermediates are never keys we act on.
        if hasIntermediates || parameters.first.map({ (0x3C...0x3F).contains($0) }) == true { return }
        if let key = Self.cursorKey(final: final) {
            keys.append(key)
            return
        }
        switch final {
        case UInt8(ascii: "Z"):
            keys.append(.backTab)
        case UInt8(ascii: "~"):
            switch firstParameter() {
            case 1, 7: keys.append(.home)
            case 3: keys.append(.delete)
            case 4, 8: keys.append(.end)
            case 5: keys.append(.pageUp)
            case 6: keys.append(.pageDown)
            case 200:
                pasted.removeAll(keepingCapacity: true)
                state = .paste(matched: 0)
            default: break
            }
        default:
            break
        }
    }

    /// Keys whose final byte is the same after CSI and SS3.
    private static func cursorKey(final: UInt8) -> Key? {
        switch final {
        case UInt8(ascii: "A"): .up
        case UInt8(ascii: "B"): .down
        case UInt8(ascii: "C"): .right
        case UInt8(ascii: "D"): .left
        case UInt8(ascii: "H"): .home
        case UInt8(ascii: "F"): .end
        default: nil
        }
    }

    /// The decimal number before the first `;` or `:`, or nil.
    private func firstParameter() -> Int? {
        var number = 0
        var digits = 0
        for byte in parameters {
            guard (0x30...0x39).contains(byte) else { break }
            // Bounded by `parameterLimit` digits, but keep it far from overflow anyway.
            if digits < 9 { number = number * 10 + Int(byte - 0x30) }
            digits += 1
        }
        return digits == 0 ? nil : number
    }

    private mutating func consumeInPaste(_ byte: UInt8, matched: Int, into keys: inout [Key]) {
        if byte == Self.pasteEnd[matched] {
            if matched + 1 == Self.pasteEnd.count {
                state = .ground
                keys.append(.paste(Self.pastedText(pasted)))
                pasted.removeAll()
            } else {
                state = .paste(matched: matched + 1)
            }
            return
        }
        // The marker has no ESC after its first byte, so a failed partial match
        // is plain text and only this byte can start a new match.
        pasted.append(contentsOf: Self.pasteEnd[..<matched])
        if byte == Self.pasteEnd[0] {
            state = .paste(matched: 1)
        } else {
            pasted.append(byte)
            state = .paste(matched: 0)
        }
    }

    /// Terminals send line breaks in a paste as the Enter key does (CR); CR LF
    /// and CR become LF so the text reads as text.
    private static func pastedText(_ bytes: [UInt8]) -> String {
        var normalised: [UInt8] = []
        normalised.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == 0x0D {
                normalised.append(0x0A)
                if index + 1 < bytes.endIndex, bytes[index + 1] == 0x0A { index += 1 }
            } else {
                normalised.append(byte)
            }
            index += 1
        }
        return String(decoding: normalised, as: UTF8.self)
    }
}
