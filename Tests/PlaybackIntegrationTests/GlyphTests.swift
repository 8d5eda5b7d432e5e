import AliciaTestSupport
import Testing

/// The player's glyphs (`…`, `·`, `─`, `▶`, `×`) on a terminal whose locale is not UTF-8: ASCII,
/// as cmus falls back; into a pipe, the text exactly.
@Suite("ASCII glyphs")
struct GlyphTests {
    @Test("LANG=C: --help on a terminal is ASCII, the same text into a pipe keeps its glyphs; a UTF-8 locale keeps them on the terminal")
    func asciiUnderTheCLocale() async throws {
        try StudioTests.requireTmux()
        let player = try PlayerProcess.executablePath()
        for (lang, ascii) in [("C", true), ("C.UTF-8", false)] {
            let environment = try PlayerProcess.isolated(["LANG": lang, "LC_ALL": "", "LC_CTYPE": ""])
            let tmux = try StudioTests.Tmux(command: "'\(player)' --help", columns: 160, rows: 400,
                                            environment: environment)
            #expect(try await StudioTests.status(tmux) == "0")
            let screen = try await tmux.waitFor("the usage") { $0.contains("token = ") }
            let nonASCII = screen.unicodeScalars.filter { $0.value >= 0x80 }
            if ascii {
                #expect(nonASCII.isEmpty, "LANG=C drew \(String(String.UnicodeScalarView(nonASCII)))")
                #expect(screen.contains("token = ."), "\(screen)")
            } else {
                #expect(screen.contains("token = …"), "\(screen)")
            }
        }
        let piped = try await Playback.run(["--help"], environment: ["LANG": "C", "LC_ALL": "", "LC_CTYPE": ""])
        #expect(piped.stdout.contains("token = …"), "a pipe lost the text's own glyphs")
    }
}
