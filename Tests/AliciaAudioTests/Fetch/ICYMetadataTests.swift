import Testing
@testable import AliciaAudio

/// SHOUTcast/Icecast in-band titles taken out of a stream, however the network splits it.
@Suite struct ICYMetadataTests {
    /// `interval` audio bytes (counting up from `from`), then a block holding `text` (none: a zero
    /// length byte).
    static func period(_ interval: Int, from: Int, text: String?) -> [UInt8] {
        var bytes = (0..<interval).map { UInt8((from + $0) % 256) }
        guard let text else { return bytes + [0] }
        let body = Array(text.utf8)
        let blocks = (body.count + 15) / 16
        bytes.append(UInt8(blocks))
        return bytes + body + [UInt8](repeating: 0, count: blocks * 16 - body.count)
    }

    @Test func audioComesOutWholeAndTitlesAtTheirPlace() throws {
        let stream = Self.period(100, from: 0, text: "StreamTitle='One';StreamUrl='';")
            + Self.period(100, from: 100, text: nil)
            + Self.period(100, from: 200, text: "StreamTitle='Two - Ünïcode';")
            + (300..<350).map { UInt8($0 % 256) }
        // Every way of cutting it in two, and byte by byte.
        for cut in [0, 1, 99, 100, 101, 117, 150, 201, 320, stream.count] {
            var icy = try #require(ICYMetadata(header: "100"))
            var audio: [UInt8] = []
            var titles: [(Int, String)] = []
            for part in [stream[..<cut], stream[cut...]] {
                // Each title with the count of audio bytes before it (all of them, so far).
                let found = Array(part).withUnsafeBytes { icy.split($0, into: &audio) }
                titles += found.map { ($0.at, $0.title) }
            }
            #expect(audio == (0..<350).map { UInt8($0 % 256) }, "cut at \(cut)")
            #expect(titles.map(\.0) == [100, 300] && titles.map(\.1) == ["One", "Two - Ünïcode"], "cut at \(cut): \(titles)")
        }
        var icy = try #require(ICYMetadata(header: " 100 "))
        var audio: [UInt8] = []
        var titles: [String] = []
        for byte in stream { titles += [byte].withUnsafeBytes { icy.split($0, into: &audio) }.map(\.title) }
        #expect(audio.count == 350 && titles == ["One", "Two - Ünïcode"])
    }

    @Test func titlesAsStationsWriteThem() {
        func title(_ text: [UInt8]) -> String? { ICYMetadata.streamTitle(in: text) }
        #expect(title(Array("StreamTitle='Rock 'n' Roll';".utf8)) == "Rock 'n' Roll")
        #expect(title(Array("StreamTitle='Artist - Song';StreamUrl='http://x';".utf8)) == "Artist - Song")
        // Latin-1, as many stations send it.
        #expect(title(Array("StreamTitle='Caf".utf8) + [0xE9] + Array("';".utf8)) == "Café")
        // No end mark: up to the block's padding; control characters dropped; empty is none.
        #expect(title(Array("StreamTitle='Late\u{1B}[2J news".utf8) + [0, 0]) == "Late[2J news")
        #expect(title(Array("StreamTitle='';".utf8)) == nil)
        #expect(title(Array("StreamUrl='x';".utf8)) == nil)
    }

    @Test func anIntervalMustBeUsable() {
        #expect(ICYMetadata(header: nil) == nil)
        #expect(ICYMetadata(header: "0") == nil)
        #expect(ICYMetadata(header: "-5") == nil)
        #expect(ICYMetadata(header: "many") == nil)
        #expect(ICYMetadata(header: "16000")?.interval == 16000)
    }

    @Test func aLiveTitleIsTheReadersWhenItGetsThere() {
        var live = LiveState(name: "Radio")
        #expect(live.add("A", at: 1000) && !live.add("A", at: 5000) && live.add("B", at: 9000))
        live.reached(999)
        #expect(live.info.title == nil && live.changes == 0)
        live.reached(1000)
        #expect(live.info.title == "A" && live.changes == 1)
        live.reached(20000)
        #expect(live.info.title == "B" && live.changes == 2 && live.info.name == "Radio")
        // Bounded: a station sending a new title in every block keeps at most the limit waiting.
        for i in 0..<1000 { _ = live.add("T\(i)", at: 30000 + Int64(i)) }
        live.reached(40000)
        #expect(live.info.title == "T999")
    }
}
