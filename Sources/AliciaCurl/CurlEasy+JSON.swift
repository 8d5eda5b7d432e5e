/// A JSON request and its gathered answer, as the backend client and the sync client make them:
/// one place for the headers and for the bound on what a server may send back.
extension CurlEasy {
    /// The answer to `performGathering`: the body (the first `limit` bytes at most), whether the
    /// server sent more than that (the transfer was then ended), and how the transfer ended.
    package struct Gathered {
        package var body: [UInt8]
        package var tooLarge: Bool
        package var failure: CurlError?
    }

    /// Sets up a request to `url` that wants JSON back (`accept`): a GET, or a POST of `json`.
    package func prepareJSON(_ url: String, post json: [UInt8]?, accept: String = "application/json") {
        setURL(url)
        if let json {
            setHeaders(["Content-Type: application/json", "Accept: \(accept)"])
            setPostBody(json)
        } else {
            setHeaders(["Accept: application/json"])
            setGet()
        }
    }

    /// Runs the transfer set up, gathering at most `limit` bytes of its body. `stream`, when given,
    /// sees a 2xx body as it arrives instead (returning false ends it, as a write error).
    package func performGathering(limit: Int, stream: ((UnsafeRawBufferPointer) -> Bool)? = nil) -> Gathered {
        var body: [UInt8] = []
        var tooLarge = false
        onBody { [unowned self] bytes in
            if let stream, responseCode < 300 {
                return stream(bytes) ? bytes.count : 0
            }
            guard body.count + bytes.count <= limit else {
                tooLarge = true
                return 0
            }
            body.append(contentsOf: bytes)
            return bytes.count
        }
        let failure = perform()
        onBody { $0.count }
        return Gathered(body: body, tooLarge: tooLarge, failure: failure)
    }
}
