/// Keys by name, as a configuration file writes them (mpv's input.conf names): `SPACE`, `ENTER`,
/// `ESC`, `TAB`, `BS`, `DEL`, `UP`, `DOWN`, `LEFT`, `RIGHT`, `HOME`, `END`, `PGUP`, `PGDWN`,
/// `Shift+TAB`, `Ctrl+u`, `Alt+x`, or the character itself (`x`, `X`, `+`, `,`). Names are read in
/// any case; a character is taken as it is (`x` and `X` are two keys).
extension Key {
    private static let named: [(String, Key)] = [
        ("SPACE", .character(" ")), ("ENTER", .enter), ("ESC", .escape), ("TAB", .tab), ("Shift+TAB", .backTab),
        ("BS", .backspace), ("DEL", .delete), ("UP", .up), ("DOWN", .down), ("LEFT", .left), ("RIGHT", .right),
        ("HOME", .home), ("END", .end), ("PGUP", .pageUp), ("PGDWN", .pageDown),
    ]

    /// The key a name stands for; nil when it names none.
    public init?(name: String) {
        if let found = Self.named.first(where: { $0.0.lowercased() == name.lowercased() }) {
            self = found.1
            return
        }
        let lowered = name.lowercased()
        for (prefix, make) in [("ctrl+", Key.control), ("alt+", Key.alt)] where lowered.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            guard rest.count == 1, let character = rest.first, character.isASCII, !character.isWhitespace else { return nil }
            self = make(prefix == "ctrl+" ? Character(character.lowercased()) : character)
            return
        }
        guard name.count == 1, let character = name.first, !character.isWhitespace, !character.isNewline else { return nil }
        self = .character(character)
    }

    /// The key's name, as `init(name:)` reads it and `help keys` prints it; nil for a paste.
    public var name: String? {
        if let found = Self.named.first(where: { $0.1 == self }) { return found.0 }
        switch self {
        case .character(let character): return String(character)
        case .control(let character): return "Ctrl+" + String(character)
        case .alt(let character): return "Alt+" + String(character)
        default: return nil
        }
    }

    /// The key as the help shows it: arrows as arrows, the rest by name.
    public var label: String {
        switch self {
        case .left: return "←"
        case .right: return "→"
        case .up: return "↑"
        case .down: return "↓"
        case .character(" "): return "space"
        case .enter: return "enter"
        case .escape: return "Esc"
        case .pageUp: return "PgUp"
        case .pageDown: return "PgDn"
        case .control(let character): return "ctrl-" + String(character)
        default: return name ?? "?"
        }
    }
}
