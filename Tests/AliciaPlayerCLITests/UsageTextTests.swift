import Testing
import AliciaTerminal
@testable import AliciaPlayerCLI
import AliciaLocks
@testable import AliciaLibrary
@testable import AliciaHost
@testable import AliciaStudio

/// The usage texts as printed: `--help` and `help COMMAND` fit 80 columns.
@Suite struct UsageTextTests {
    static let commands: [String?] = [nil] + CommandUsage.texts.keys.sorted().map(Optional.some)

    @Test("every line of every usage fits 80 columns", arguments: commands)
    func fits(command: String?) {
        for line in UsageText.rendered(command).split(separator: "\n") {
            #expect(DisplayWidth.of(String(line)) <= 80, "\(command ?? "--help"): \(line)")
        }
    }

    /// Wrapping loses nothing: the same words in the same order.
    @Test("wrapping keeps every word", arguments: commands)
    func keepsWords(command: String?) {
        let raw = command.flatMap(CommandUsage.text(for:)) ?? Invocation.usage
        #expect(UsageText.rendered(command).split(whereSeparator: \.isWhitespace) == raw.split(whereSeparator: \.isWhitespace))
    }

    @Test func blocksThatFitAreLeftAlone() {
        let text = "Usage: alicia-player x [--a]\n\nOptions:\n  --a                    short\n                         and more\n"
        #expect(UsageText.wrapped(text) == text)
    }

    @Test func anEntryRewrapsUnderItsDescription() {
        let long = "  --start T              " + Array(repeating: "word", count: 20).joined(separator: " ")
        let lines = UsageText.wrapped(long).split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix("  --start T              word"))
        #expect(lines[1].hasPrefix(String(repeating: " ", count: 25) + "word"))
    }

    @Test func aSynopsisWrapsBetweenGroups() {
        let line = "Usage: alicia-player play <ref>... [--loop] [--shuffle] [--start T] [--speed X] [--volume N] [--device SINK]"
        let lines = UsageText.wrapped(line).split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { !$0.contains("[--device") || $0.contains("[--device SINK]") })
    }

    @Test func everyCommandHasAUsageAndIsInTheList() {
        for command in CommandUsage.texts.keys {
            #expect(Invocation.commandNames.contains(command), "\(command)")
        }
    }
}
