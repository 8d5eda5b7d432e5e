import AliciaDemoBackend
import AliciaTestSupport
import Foundation
import Testing

/// `GET|HEAD /api/audio/<name>.wav`: whole files, Range, HEAD and keep-alive, checked with curl.
@Suite("Media")
struct MediaTests {
    /// The 45 s mono interlude: 4.3 MB, the smallest episode to fetch whole.
    static let interlude = "/api/audio/interlude.wav"
    static let interludeLength = 44 + 45 * 48_000 * 2

    @Test("a Range answer is 206 with Content-Range and exactly those bytes of the whole file")
    func rangeMatchesWhole() async throws {
        let backend = try DemoBackend(token: "t")
        defer { backend.stop() }
        let whole = try await Curl.run([Curl.mediaURL(backend, Self.interlude)])
        let wholeTransfer = try whole.single()
        #expect(wholeTransfer.status == 200)
        #expect(wholeTransfer.header("content-type") == "audio/wav")
        #expect(wholeTransfer.header("accept-ranges") == "bytes")
        #expect(wholeTransfer.header("content-length") == String(Self.interludeLength))
        #expect(whole.body.count == Self.interludeLength)
        let total = whole.body.count

        let ranges: [(String, ClosedRange<Int>)] = [
            ("0-43", 0...43),
            ("40-47", 40...47),
            ("1000-1999", 1000...1999),
            ("1234567-", 1_234_567...total - 1),
            ("-500", total - 500...total - 1),
            ("\(total - 10)-\(total + 1000)", total - 10...total - 1),
            ("-\(total * 2)", 0...total - 1),
            ("3000000-3000000", 3_000_000...3_000_000),
            ("100-199,300-399", 100...199),
        ]
        for (spec, expected) in ranges {
            let part = try await Curl.run([Curl.mediaURL(backend, Self.interlude), "--header", "Range: bytes=\(spec)"])
            let transfer = try part.single()
            #expect(transfer.status == 206, "bytes=\(spec)")
            #expect(transfer.header("content-range") == "bytes \(expected.lowerBound)-\(expected.upperBound)/\(total)", "bytes=\(spec)")
            #expect(transfer.header("content-length") == String(expected.count), "bytes=\(spec)")
            #expect(part.body == Array(whole.body[expected]), "bytes=\(spec): the bytes differ from the whole file's")
        }
    }

    /// What such a read costs is SynthesisTests' (frames synthesized, no clock); here, the answer.
    @Test("ranges far into the 45-minute episode answer with their bytes, odd offsets included")
    func longEpisodeRange() async throws {
        let backend = try DemoBackend(token: "t")
        defer { backend.stop() }
        let length = 44 + 2_700 * 48_000 * 4
        let offset = 400_000_001
        let result = try await Curl.run([Curl.mediaURL(backend, "/api/audio/nights-1.wav"), "--range", "\(offset)-\(offset + 65_535)"])
        let transfer = try result.single()
        #expect(transfer.status == 206)
        #expect(transfer.header("content-range") == "bytes \(offset)-\(offset + 65_535)/\(length)")
        #expect(result.body.count == 65_536)
        // An odd offset starts in the middle of a sample: the same bytes as a wider, even request.
        let wider = try await Curl.run([Curl.mediaURL(backend, "/api/audio/nights-1.wav"), "--range", "\(offset - 1)-\(offset + 65_535)"])
        #expect(Array(wider.body.dropFirst()) == result.body)
    }

    @Test("a range that starts past the end is 416 with Content-Range: bytes */length", arguments: [
        "bytes=\(interludeLength)-", "bytes=\(interludeLength + 5)-\(interludeLength + 10)", "bytes=99999999999999999999-", "bytes=-0",
    ])
    func unsatisfiable(range: String) async throws {
        let backend = try DemoBackend(token: "t")
        defer { backend.stop() }
        let result = try await Curl.run([Curl.mediaURL(backend, Self.interlude), "--header", "Range: \(range)"])
        let transfer = try result.single()
        #expect(transfer.status == 416)
        #expect(transfer.header("content-range") == "bytes */\(Self.interludeLength)")
    }

    @Test("a Range header that is not a valid bytes range is ignored: 200 with the whole file", arguments: [
        "items=0-10", "bytes=10-5", "bytes=abc", "bytes=", "bytes=1-2,x",
    ])
    func invalidRangeIgnored(range: String) async throws {
        let backend = try DemoBackend(token: "t")
        defer { backend.stop() }
        let result = try await Curl.run([Curl.mediaURL(backend, "/api/audio/voice-2.wav"), "--header", "Range: \(range)", "--output", "/dev/null"])
        let transfer = try result.single()
        #expect(transfer.status == 200)
        #expect(transfer.header("content-range") == nil)
        #expect(String(transfer.bytesDownloaded) == transfer.header("content-length"))
    }

    @Test("HEAD has the GET's headers and no body, and the connection stays usable")
    func head() async throws {
        let backend = try DemoBackend(token: "t")
        defer { backend.stop() }
        let url = Curl.mediaURL(backend, Self.interlude)
        // Two HEADs and a ranged GET on one connection: a body after a HEAD would corrupt the next answer.
        let result = try await Curl.run(
            ["--head", url, "--output", "/dev/null", "--next"] + Curl.writeOut
                + ["--silent", "--head", url, "--range", "10-19", "--output", "/dev/null", "--next"] + Curl.writeOut
                + ["--silent", url, "--range", "0-3"]
        )
        #expect(result.transfers.count == 3)
        guard result.transfers.count == 3 else { return }
        let (first, second, third) = (result.transfers[0], result.transfers[1], result.transfers[2])
        #expect(first.status == 200)
        #expect(first.header("content-length") == String(Self.interludeLength))
        #expect(first.header("accept-ranges") == "bytes")
        #expect(first.bytesDownloaded == 0)
        #expect(second.status == 206)
        #expect(second.header("content-range") == "bytes 10-19/\(Self.interludeLength)")
        #expect(second.header("content-length") == "10")
        #expect(third.status == 206)
        #expect(second.connects == 0 && third.connects == 0, "the connection was not reused after HEAD")
        #expect(result.text == "RIFF")
        #expect(backend.requests.map(\.bodyBytes) == [0, 0, 4])
    }

    @Test("keep-alive: several requests share one connection")
    func keepAlive() async throws {
        let backend = try DemoBackend(token: "t")
        defer { backend.stop() }
        let urls = [
            Curl.mediaURL(backend, "/api/audio/voice-1.wav"), Curl.mediaURL(backend, "/api/audio/voice-2.wav"),
            backend.baseURL + "/api/tracks?token=t", Curl.mediaURL(backend, "/api/audio/s1e02.wav"),
        ]
        let result = try await Curl.run(urls.flatMap { [$0, "--output", "/dev/null"] } + ["--range", "0-65535"])
        #expect(result.transfers.map(\.connects) == [1, 0, 0, 0], "\(result.transfers.map(\.connects))")
        // The Range applies to every URL; /api/tracks is not media and ignores it.
        #expect(result.transfers.map(\.status) == [206, 206, 200, 206])

        let verbose = try await ChildProcess.run(
            "curl", ["--silent", "--verbose", "--max-time", "20", "--output", "/dev/null", "--output", "/dev/null", "--range", "0-99", urls[0], urls[1]]
        )
        #expect(verbose.stderrText.contains("Re-using existing connection"), "\(verbose.stderrText)")
    }

    @Test("a client that hangs up mid-body leaves the server serving")
    func clientHangsUp() async throws {
        let backend = try DemoBackend(token: "t", faults: DemoBackend.Faults(bytesPerSecond: 200_000))
        defer { backend.stop() }
        let abandoned = try await Curl.run([Curl.mediaURL(backend, "/api/audio/s1e01.wav"), "--max-time", "0.5", "--output", "/dev/null"])
        // 28: the transfer timed out, as the client wanted.
        #expect(try abandoned.single().exitCode == 28)
        let next = try await Curl.run([Curl.mediaURL(backend, "/api/audio/s1e01.wav"), "--range", "0-43"])
        #expect(try next.single().status == 206)
        let sent = try #require(backend.requests.first?.bodyBytes)
        #expect(sent > 0 && sent < 1_000_000, "\(sent) bytes sent to a client that left after 0.5 s at 200 kB/s")
    }

    @Test("unknown media names are 404", arguments: [
        "/api/audio/s9e99.wav", "/api/audio/s1e01.mp3", "/api/audio/s1e01", "/api/audio/voice-0.wav", "/api/audio/voice-007.wav",
        "/api/audio/voice--1.wav", "/api/audio/voice-99999.wav", "/api/audio/voice-x.wav", "/api/audio/",
    ])
    func unknownMedia(path: String) async throws {
        let backend = try DemoBackend(token: "t")
        defer { backend.stop() }
        let result = try await Curl.run([Curl.mediaURL(backend, path), "--output", "/dev/null"])
        #expect(try result.single().status == 404)
    }

    @Test("voice notes exist up to the last message a chat handed out")
    func voiceNotesFollowChat() async throws {
        let backend = try DemoBackend(token: "t", faults: DemoBackend.Faults(chatTokenDelay: .zero))
        defer { backend.stop() }
        let before = try await Curl.run([Curl.mediaURL(backend, "/api/audio/voice-101.wav"), "--output", "/dev/null"])
        #expect(try before.single().status == 404)
        let chat = try await Curl.get(backend, "/api/chat", ["--data", #"{"text":"hi","voice":true}"#])
        #expect(chat.text.contains("/api/audio/voice-101.wav"), "\(chat.text)")
        let after = try await Curl.run([Curl.mediaURL(backend, "/api/audio/voice-101.wav"), "--range", "0-43"])
        #expect(try after.single().status == 206)
        let header = try WAVHeader(after.body)
        #expect(header.sampleRate == 24_000 && header.channels == 1)
    }
}
