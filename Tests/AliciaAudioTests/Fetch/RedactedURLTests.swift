import Testing
@testable import AliciaAudio

@Suite struct RedactedURLTests {
    @Test(arguments: [
        ("http://h:8766/api/audio/a.wav?token=s3cret", "http://h:8766/api/audio/a.wav?token=***"),
        ("http://h/a.wav?x=1&token=abc&y=2", "http://h/a.wav?x=1&token=***&y=2"),
        ("http://h/a.wav?TOKEN=abc#t=10", "http://h/a.wav?TOKEN=***#t=10"),
        ("https://user:pw@h/a.wav", "https://user:***@h/a.wav"),
        ("http://h/a.wav", "http://h/a.wav"),
        ("http://h/a.wav?tokenish=1", "http://h/a.wav?tokenish=1"),
        // Foreign hosts, fragments, encoded keys and nested URLs (Alicia 2.0's absolute media URLs).
        ("http://192.0.2.1:8766/api/audio/a.wav?token=phone-token", "http://192.0.2.1:8766/api/audio/a.wav?token=***"),
        ("http://h/a.wav#token=frag&t=3", "http://h/a.wav#token=***&t=3"),
        ("http://h/a.wav?%74oken=enc&x=1", "http://h/a.wav?%74oken=***&x=1"),
        ("http://h/a.wav?token=t%2Fk%20n%26x%3D1", "http://h/a.wav?token=***"),
        ("http://h/p?next=http%3A%2F%2Fo%2Fa%3Fv%3D1%26token%3Dinner%26w%3D2", "http://h/p?next=http%3A%2F%2Fo%2Fa%3Fv%3D1%26token%3D***%26w%3D2"),
        ("http://h/a.wav?token=one&TOKEN=two", "http://h/a.wav?token=***&TOKEN=***"),
    ])
    func hidesSecrets(url: String, expected: String) {
        #expect(RedactedURL.redact(url) == expected)
    }

    @Test func scrubsSecretsQuotedInMessages() {
        let url = "http://h/a.wav?token=s3cret"
        #expect(RedactedURL.scrub("server said s3cret twice: s3cret", secretsIn: url) == "server said *** twice: ***")
        let encoded = "http://h/a.wav?token=a%2Bb#token=frag"
        #expect(RedactedURL.scrub("a%2Bb, a+b and frag", secretsIn: encoded) == "***, *** and ***")
    }
}

@Suite struct MediaLocationTests {
    @Test func aPlainPathBecomesAnEncodedFileURL() throws {
        let location = try MediaLocation("/tmp/My Episode #1.wav")
        #expect(location.url == "file:///tmp/My%20Episode%20%231.wav")
        #expect(location.filePath == "/tmp/My Episode #1.wav")
        #expect(location.display == "/tmp/My Episode #1.wav")
    }

    @Test func fileURLsAreDecoded() throws {
        let location = try MediaLocation("file:///tmp/a%20b.wav")
        #expect(location.filePath == "/tmp/a b.wav")
    }

    @Test func httpURLsAreKeptAndShownRedacted() throws {
        let location = try MediaLocation("http://127.0.0.1:8766/api/audio/x.wav?token=t0k")
        #expect(location.url.hasSuffix("token=t0k"))
        #expect(location.display == "http://127.0.0.1:8766/api/audio/x.wav?token=***")
        #expect(!location.isFile)
    }

    @Test func otherSchemesAreRefused() {
        #expect(throws: MediaLocation.Problem.unsupportedScheme("ftp")) { try MediaLocation("ftp://h/a.wav") }
        #expect(throws: MediaLocation.Problem.empty) { try MediaLocation("") }
    }
}
