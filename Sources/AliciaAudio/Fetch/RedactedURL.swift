internal import AliciaCurl

/// Hides secrets in URLs before they are shown, logged or put in an error. The rule itself is
/// `URLRedaction`'s (in AliciaCurl), shared with the backend client: every `token` value in the
/// query or the fragment, percent-encoded or not, on any host, and the userinfo's password.
public enum RedactedURL {
    /// `url` with every secret value and any userinfo password replaced by `***`.
    public static func redact(_ url: String) -> String {
        URLRedaction.redact(url)
    }

    /// Replaces every occurrence of `secret` in `text` with `***`: the last
    /// line of defence for messages that quote a server or library verbatim.
    public static func scrub(_ text: String, secret: String?) -> String {
        URLRedaction.scrub(text, secret: secret)
    }

    /// `text` with every secret that `url` carries replaced by `***`.
    public static func scrub(_ text: String, secretsIn url: String) -> String {
        URLRedaction.scrub(text, secretsIn: url)
    }

    /// The values of the secret items of `url` (as written and percent-decoded).
    static func secrets(in url: String) -> [String] {
        URLRedaction.secrets(in: url)
    }
}
