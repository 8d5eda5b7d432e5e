import Testing
@testable import AliciaBackend

/// Absolute media URLs from another host (Alicia 2.0): used as given, with a fallback on our base
/// URL and our token; no token of anyone's is ever shown.
@Suite struct MediaURLsTests {
    static let ours = "our-s3cret"
    static let phones = "phone-t0ken"

    private func configuration() throws -> BackendConfiguration {
        try BackendConfiguration(baseURL: "http://alicia.local:8766", token: Self.ours)
    }

    @Test func aForeignURLIsTriedAsGivenThenOnOurHostWithOurToken() throws {
        let given = "http://192.0.2.1:8766/api/audio/s1e01.wav?token=\(Self.phones)&v=2#t=5"
        let urls = try configuration().mediaURLs(for: given)
        #expect(urls.primary == given)
        #expect(urls.fallback == "http://alicia.local:8766/api/audio/s1e01.wav?v=2&token=\(Self.ours)#t=5")
        #expect(urls.all.count == 2)
        #expect(try configuration().mediaURL(for: given) == given, "a URL that carries its token gets no second one")
    }

    @Test func everyTokenIsTakenOutOfTheFallback() throws {
        let urls = try configuration().mediaURLs(for: "https://phone.tailnet:8766/api/speech/c0.m4a?TOKEN=a&%74oken=b")
        #expect(urls.fallback == "http://alicia.local:8766/api/speech/c0.m4a?token=\(Self.ours)")
        let noToken = try BackendConfiguration(baseURL: "http://alicia.local:8766", token: nil)
        #expect(noToken.mediaURLs(for: "http://192.0.2.1:8766/a.wav?token=x").fallback == "http://alicia.local:8766/a.wav")
    }

    @Test func aPathHasNoFallback() throws {
        let urls = try configuration().mediaURLs(for: "/api/audio/s1e01.wav")
        #expect(urls == MediaURLs(primary: "http://alicia.local:8766/api/audio/s1e01.wav?token=\(Self.ours)", fallback: nil))
        let same = try configuration().mediaURLs(for: "http://alicia.local:8766/api/audio/s1e01.wav")
        #expect(same.fallback == nil && same.primary.hasSuffix("token=\(Self.ours)"))
    }

    @Test func noTokenIsEverShown() throws {
        let urls = try configuration().mediaURLs(for: "http://192.0.2.1:8766/api/audio/s1e01.wav?token=\(Self.phones)")
        for url in urls.all {
            let shown = BackendConfiguration.redacted(url)
            #expect(!shown.contains(Self.ours) && !shown.contains(Self.phones) && shown.contains("token=***"), "\(shown)")
        }
        let message = "GET \(urls.primary) failed: \(Self.phones) rejected"
        #expect(BackendConfiguration.scrubbed(message, secretsIn: urls.primary) == "GET http://192.0.2.1:8766/api/audio/s1e01.wav?token=*** failed: *** rejected")
    }

    @Test(arguments: [
        ("http://h/a.wav#token=frag", "http://h/a.wav#token=***"),
        ("http://h/a.wav?x=1&Token=t%2Bk", "http://h/a.wav?x=1&Token=***"),
        ("http://h/a.wav?%54OKEN=abc", "http://h/a.wav?%54OKEN=***"),
        ("http://h/p?u=http%3A%2F%2Fo%2Fa.wav%3Ftoken%3Dinner", "http://h/p?u=http%3A%2F%2Fo%2Fa.wav%3Ftoken%3D***"),
        ("https://u:pw@h/a.wav?access_token=z", "https://u:***@h/a.wav?access_token=***"),
        ("http://h/tokens/a.wav?tokenish=1", "http://h/tokens/a.wav?tokenish=1"),
    ])
    func redactionCoversEveryForm(url: String, shown: String) {
        #expect(BackendConfiguration.redacted(url) == shown)
    }
}
