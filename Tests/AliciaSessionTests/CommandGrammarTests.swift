import Testing
import AliciaAudio
import AliciaJSON
@testable import AliciaSession

/// The one grammar's tables, walked: every alias expands, for every example it gives, to lines the
/// command table takes; every command and alias says how it is used and what it does; no alias
/// hides a command of the table.
@Suite struct CommandGrammarTests {
    @Test func everyAliasExpandsToValidSocketLines() throws {
        for alias in CommandAliases.table {
            #expect(!alias.examples.isEmpty, "\(alias.name) has no example")
            for example in alias.examples {
                for name in alias.names {
                    let lines = try CommandAliases.expand([name] + example).get()
                    #expect(!lines.isEmpty)
                    for line in lines {
                        let request = SessionCommands.request(line[0], line.dropFirst().map { .string($0) })
                        #expect((try? request.get()) != nil, "\(name) \(example) → \(line): \(request)")
                    }
                }
            }
        }
    }

    @Test func everyVerbHasUsageAndHelp() {
        for command in SessionCommands.table {
            #expect(!command.help.isEmpty && command.usage.hasPrefix(command.name), "\(command.name)")
        }
        for alias in CommandAliases.table {
            #expect(!alias.help.isEmpty && alias.usage.hasPrefix(alias.name), "\(alias.name)")
        }
        #expect(CommandGrammar.aliases.count == CommandAliases.table.count)
        #expect(CommandGrammar.commands.count == SessionCommands.table.count)
    }

    @Test func noAliasHidesACommandOfTheTable() {
        let commands = Set(SessionCommands.names)
        for name in CommandAliases.names { #expect(!commands.contains(name), "the alias \(name) hides a command") }
    }

    /// The four ways of one chapter on are one request.
    @Test func chapterOnIsOneRequestHoweverItIsSpelled() throws {
        let expected = CommandRequest.add("chapter", 1)
        #expect(try CommandAliases.requests(["chapter", "+1"]).get() == [expected])
        #expect(try CommandAliases.requests(["chapter", "next"]).get() == [expected])
        #expect(try CommandAliases.requests(["add", "chapter", "1"]).get() == [expected])
        #expect(try SessionCommands.request("add", [.string("chapter"), .number(1)]).get() == expected)
        #expect(try CommandAliases.requests(["chapter", "-1"]).get() == [.add("chapter", -1)])
    }

    @Test(arguments: [
        (["seek", "+30"], TransportCommand.seek(.by(30))), (["seek", "-15"], .seek(.by(-15))),
        (["seek", "1:20"], .seek(.to(80))), (["seek", "50%"], .seek(.toFraction(0.5))),
        (["seek", "12"], .seek(.by(12))), (["seek", "12", "absolute"], .seek(.to(12))),
    ])
    func seekTakesOurTimesAndMpvsNumbers(words: [String], expected: TransportCommand) throws {
        #expect(try CommandAliases.requests(words).get() == [.perform(expected)])
    }
}
