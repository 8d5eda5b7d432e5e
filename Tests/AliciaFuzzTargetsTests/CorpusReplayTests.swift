import AliciaFuzzTargets
import Testing

/// Every seed and regression input in Tests/Fuzz/<target>/ through its target, without sanitizers:
/// what the fuzzers once found stays fixed in the ordinary suite.
@Suite struct CorpusReplayTests {
    static let corpus = String(#filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast(2).joined(separator: "/")) + "/Fuzz"

    @Test(arguments: FuzzTarget.all.map(\.name))
    func everyCorpusFileGoesThrough(_ name: String) throws {
        let target = try #require(FuzzTarget.named(name))
        let files = FuzzReplay.filesIn(Self.corpus + "/" + name)
        #expect(!files.isEmpty, "no corpus in Tests/Fuzz/\(name)")
        for file in files {
            let bytes = try #require(FuzzReplay.contents(of: file), "cannot read \(file)")
            target.run(bytes)
        }
    }

    @Test func everyCorpusDirectoryHasATarget() {
        let names = Set(FuzzTarget.all.map(\.name))
        for directory in FuzzReplay.directoriesIn(Self.corpus) {
            #expect(names.contains(directory), "Tests/Fuzz/\(directory) has no fuzz target")
        }
    }
}
