import AliciaTestSupport
import Testing

/// Exit statuses a script can rely on.
@Suite("Honest exits")
struct HonestExitTests {
    @Test("an empty text is the same usage error (exit 2, one line) as an argument and from a file")
    func anEmptyTextIsAUsageError() async throws {
        let directory = try TemporaryDirectory(prefix: "honest")
        let empty = try directory.write(Array(" \n\t\n".utf8), as: "empty.txt")
        for arguments in [["speak", "   "], ["speak", "--file", empty]] {
            let result = try await Playback.run(arguments)
            #expect(result.status == 2, "\(arguments): \(result)")
            #expect(result.stderr.hasPrefix("alicia-player: speak"), "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(arguments): \(result.stdout)")
        }
    }
}
