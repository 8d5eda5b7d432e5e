internal import AliciaCurl
import AliciaLocks

/// A fetcher's libcurl handles, made by its fetch thread when that starts: loading libcurl (about
/// thirty libraries and OpenSSL's start, 7–13 ms) then happens there, beside the PulseAudio
/// connection, instead of on the thread that opens the item and before everything else
/// (DECISIONS.md, "First audio over HTTP: libcurl loads beside the sound server's connection").
/// Other threads only wake the fetch thread, which they may do before the handles exist: the fetch
/// thread looks at the fetcher's state after making them, so such a wake-up has nothing to do.
final class CurlHandles: @unchecked Sendable {
    // @unchecked: `woken` is lock-guarded; `multi` and `easy` are written once by the fetch thread
    // (in `make`) and read by it alone.
    private let woken = Locked<CurlMulti?>(nil)
    private(set) var multi: CurlMulti?
    private(set) var easy: CurlEasy?

    /// Fetch thread: loads libcurl if nothing has yet, makes the handles and lets `configure` set the
    /// easy one up.
    func make(_ configure: (CurlEasy) -> Void) throws(CurlError) -> (CurlMulti, CurlEasy) {
        let multi = try CurlMulti()
        let easy = try CurlEasy()
        configure(easy)
        self.multi = multi
        self.easy = easy
        woken.withLock { $0 = multi }
        return (multi, easy)
    }

    /// Any thread: ends the fetch thread's wait in `curl_multi_poll` (nothing before the handles
    /// are made).
    func wakeUp() {
        woken.withLock { $0?.wakeUp() }
    }

    /// The program's HTTP policy as the fetcher uses it: HTTP/1.1, so that a pause is real TCP
    /// back-pressure (HTTP/2 keeps buffering in curl); no byte for the stall timeout drops the
    /// transfer, which is asked again from the next missing byte.
    static func httpPolicy(_ network: NetworkPolicy, userAgent: String = "alicia-player") -> HTTPPolicy {
        var http = HTTPPolicy()
        http.http11Only = true
        http.stallBytesPerSecond = 1
        http.stallSeconds = max(1, Int(network.stallTimeout.rounded()))
        http.caFile = network.caFile
        http.userAgent = userAgent
        return http
    }
}
