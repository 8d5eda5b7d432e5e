import Testing
@testable import AliciaAudio
import AliciaLocks

/// `ResidentMemory`: which mappings it may release, and that code runs on after it has.
@Suite struct ResidentMemoryTests {
    @Test(arguments: [
        ("7f3a1c000000-7f3a1c200000 r-xp 00028000 fe:01 1234 /usr/lib/x86_64-linux-gnu/libc.so.6\n", true),
        ("55d0c0000000-55d0c0100000 r-xp 00000000 fe:01 99 /opt/alicia player/bin\n", true),
        ("7f3a1c200000-7f3a1c400000 r--p 00000000 fe:01 1234 /usr/lib/x86_64-linux-gnu/libc.so.6\n", false),
        ("7f3a1c400000-7f3a1c410000 rw-p 00000000 fe:01 1234 /usr/lib/x86_64-linux-gnu/libc.so.6\n", false),
        ("7ffd1e5f0000-7ffd1e5f2000 r-xp 00000000 00:00 0 [vdso]\n", false),
        ("7f3a1c500000-7f3a1c600000 r-xp 00000000 00:00 0\n", false),
    ])
    func choosesReadOnlyCodeOfFiles(line: String, released: Bool) {
        let bytes = line.utf8CString.map { $0 }
        #expect((ResidentMemory.executableFileMapping(bytes) != nil) == released)
    }

    @Test func readsReadOnlyMappingsOfFilesAndNothingElse() throws {
        func mapping(_ line: String) -> MappedFiles.Mapping? { MappedFiles.mapping(line.utf8CString.map { $0 }) }
        let code = try #require(mapping("7f3a1c000000-7f3a1c200000 r-xp 00028000 fe:01 1234 /usr/lib/libc.so.6\n"))
        #expect(code.start == 0x7f3a_1c00_0000 && code.end == 0x7f3a_1c20_0000 && code.executable)
        let constants = try #require(mapping("7f3a1c200000-7f3a1c400000 r--p 00000000 fe:01 1234 /usr/lib/libc.so.6\n"))
        #expect(!constants.executable)
        #expect(mapping("7f3a1c400000-7f3a1c410000 rw-p 00000000 fe:01 1234 /usr/lib/libc.so.6\n") == nil)
        #expect(mapping("Anonymous:             0 kB\n") == nil)
        #expect(mapping("7f3a1c500000-7f3a1c400000 r--p 00000000 fe:01 1234 /usr/lib/libc.so.6\n") == nil, "end before start")
        #expect(mapping("11112222333344445-7f3a1c400000 r--p 00000000 fe:01 1234 /x\n") == nil, "more than 16 digits")
    }

    @Test func loadedLibraryPagesAreReleasedAndReadAgain() {
        #expect(ResidentMemory.releaseLoadedLibraryPages() > 0)
        #expect(["b", "a"].sorted() == ["a", "b"])
    }

    @Test func codeRunsOnAfterItsPagesAreReleased() {
        #expect(ResidentMemory.releaseStartupCode() > 0)
        // Code and relocated data fault back in: the standard library still works.
        let words = ["b", "a", "c"].sorted().joined(separator: ",")
        #expect(words == "a,b,c")
        #expect(String(describing: 42.5) == "42.5")
    }
}
