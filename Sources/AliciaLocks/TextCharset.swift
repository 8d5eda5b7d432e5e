#if canImport(Glibc)
import Glibc
#endif

/// Whether the terminal can show the glyphs the player draws (`…`, `·`, `─`, `▶`, `×`, the bar's
/// blocks), and their ASCII stand-ins when it cannot, as cmus falls back: only when the locale
/// names a charset that is not UTF-8 (`LANG=C`, `POSIX`, `en_US.ISO-8859-1`). With no locale
/// set at all (a container, a service) UTF-8 is kept.
package enum TextCharset {
    package static let isUTF8: Bool = {
        for name in ["LC_ALL", "LC_CTYPE", "LANG"] {
            guard let value = getenv(name).map({ String(cString: $0) }), !value.isEmpty else { continue }
            let lower = value.lowercased()
            return lower.contains("utf-8") || lower.contains("utf8")
        }
        return true
    }()

    /// `text` as this terminal can show it: itself, or with the player's glyphs in ASCII, one
    /// column for one (so a layout keeps its widths). Other letters (a title's) are left as they are.
    package static func fitted(_ text: String) -> String {
        guard !isUTF8, text.utf8.contains(where: { $0 >= 0x80 }) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar.value < 0x80 {
                out.append(scalar)
            } else if let stand = standIns[scalar] {
                out.append(contentsOf: stand.unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    private static let standIns: [Unicode.Scalar: String] = [
        "…": ".", "·": ".", "—": "-", "–": "-", "−": "-", "─": "-", "│": "|", "↓": "v", "↑": "^", "→": ">", "←": "<",
        "×": "x", "▶": ">", "⏸": "|", "█": "#", "▉": "#", "▊": "#", "▋": "#", "▌": "#", "▍": "#", "▎": "#", "▏": "|",
        "▕": "|", "▒": ":", "░": "-", "■": "#", "✓": "+", "✖": "x", "“": "\"", "”": "\"", "‘": "'", "’": "'", "§": "S",
        "🎙": "()", "❤": "<3", "\u{FE0F}": "",
    ]
}
