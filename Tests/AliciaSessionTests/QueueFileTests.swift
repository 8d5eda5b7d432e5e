import Testing
@testable import AliciaSession

@Suite struct QueueFileTests {
    private func parse(_ text: String) -> QueueFile { QueueFile.parse(Array(text.utf8)) }

    @Test func plsStationListsInTheOrderOfTheirNumbers() {
        let file = parse("\u{FEFF}\r\n[Playlist]\r\nNumberOfEntries=3\r\nFile2=http://b/stream\r\nTitle2=B mirror\r\n"
            + "File1=http://a/stream\r\nTitle1=A (128k)\r\nLength1=-1\r\nLength2=30\r\n; a comment\r\nTitle9=orphan\r\nVersion=2\r\n")
        #expect(file.lines == [
            .init(number: 6, reference: "http://a/stream", title: "A (128k)"),
            .init(number: 4, reference: "http://b/stream", title: "B mirror", duration: 30),
        ])
        #expect(file.problems.map(\.message) == ["Title9 or Length9 without a File9"])
        #expect(parse("[playlist]\nNumberOfEntries=0\n").problems.map(\.message) == ["the list names nothing to play"])
        // Not a PLS unless it says so first: an M3U line that looks like a key stays a reference.
        #expect(parse("File1=x.wav\n").lines.map(\.reference) == ["File1=x.wav"])
    }

    @Test func m3u8WithExtinfTitlesCommentsAndBlankLines() {
        let file = parse("#EXTM3U\n#EXTINF:183,Morning Light\nhttp://h/a.wav\n\n# a comment\r\nS1E02\r\n  b.wav  \n")
        #expect(file.problems.isEmpty)
        #expect(file.lines == [
            .init(number: 3, reference: "http://h/a.wav", title: "Morning Light", duration: 183),
            .init(number: 6, reference: "S1E02"),
            .init(number: 7, reference: "b.wav"),
        ])
    }

    @Test(arguments: [
        ("#EXTINF:-1,Live\nx", "Live" as String?, nil as Double?),
        ("#EXTINF:12.5 tvg-id=\"a\",Title, with comma\nx", "Title, with comma", 12.5),
        ("#EXTINF:7\nx", nil, 7),
        ("#EXTINF:abc,T\nx", "T", nil),
        // Regression: `inf` was kept as a length, and writing the list trapped in Int(_:).
        ("#EXTINF:inf,T\nx", "T", nil),
        ("#EXTINF:nan\nx", nil, nil),
        ("#EXTINF:-5\nx", nil, nil),
        ("#EXTINF:1e400,T\nx", "T", nil),
    ] as [(String, String?, Double?)])
    func extinfVariants(text: String, title: String?, duration: Double?) {
        let line = parse(text).lines.first
        #expect(line?.title == title)
        #expect(line?.duration == duration)
    }

    /// Regression: a length that is no number of seconds trapped in Int(_:); it is written unknown.
    @Test func lengthsThatAreNoneAreWrittenAsUnknown() {
        let text = QueueFile.m3u8([("a", "A", .infinity), ("b", "B", .nan), ("c", "C", 1e300), ("d", "D", 2.4)])
        #expect(text == "#EXTM3U\n#EXTINF:-1,A\na\n#EXTINF:-1,B\nb\n#EXTINF:-1,C\nc\n#EXTINF:2,D\nd\n")
    }

    @Test func anExtinfAppliesOnlyToTheNextItem() {
        let file = parse("#EXTINF:1,First\na\nb\n")
        #expect(file.lines.map(\.title) == ["First", nil])
    }

    @Test func aByteOrderMarkIsNotPartOfTheFirstLine() {
        let file = QueueFile.parse([0xEF, 0xBB, 0xBF] + Array("a.wav\n".utf8))
        #expect(file.lines.first?.reference == "a.wav")
    }

    @Test func aLineThatIsNotUTF8IsAProblemOnItsLine() {
        let file = QueueFile.parse(Array("a.wav\n".utf8) + [0xFF, 0xFE, 0x41, 0x0A] + Array("b.wav".utf8))
        #expect(file.problems == [.init(line: 2, "the line is not UTF-8 text")])
        #expect(file.lines.map(\.reference) == ["a.wav", "b.wav"])
    }

    @Test func aMegabyteLineIsRefusedNotRead() {
        let file = QueueFile.parse(Array("a.wav\n".utf8) + [UInt8](repeating: 0x61, count: 1 << 20) + [0x0A])
        #expect(file.problems.count == 1 && file.problems[0].line == 2, "\(file.problems)")
        #expect(file.lines.count == 1)
    }

    @Test func tenThousandItemsMakeABoundedQueueAndOneMoreIsAProblem() {
        let text = String(repeating: "a.wav\n", count: QueueFile.maximumItems)
        #expect(parse(text).lines.count == QueueFile.maximumItems)
        #expect(parse(text).problems.isEmpty)
        let over = parse(text + "b.wav\n")
        #expect(over.lines.count == QueueFile.maximumItems)
        #expect(over.problems.first?.line == QueueFile.maximumItems + 1)
    }

    @Test func emptyAndCommentOnlyFilesHaveNoItems() {
        #expect(parse("").lines.isEmpty)
        #expect(parse("#EXTM3U\n# nothing\n\n").lines.isEmpty)
    }

    @Test func m3u8IsWrittenWithLengthsAndTitlesAndReadsBack() {
        let text = QueueFile.m3u8([(reference: "S1E01", title: "Morning\nLight", duration: 180.4), (reference: "/a.wav", title: "a", duration: nil)])
        #expect(text == "#EXTM3U\n#EXTINF:180,Morning Light\nS1E01\n#EXTINF:-1,a\n/a.wav\n")
        #expect(parse(text).lines.map(\.reference) == ["S1E01", "/a.wav"])
    }
}
