internal import CCurl

/// Owns one libcurl multi handle: the fetch thread's event loop.
/// Every method but `wakeUp` belongs to the fetch thread.
package final class CurlMulti: @unchecked Sendable {
    // @unchecked: only `wakeUp` is called from other threads, and
    // `curl_multi_wakeup` is documented as thread-safe.
    private let handle: UnsafeMutableRawPointer

    package init() throws(CurlError) {
        try CurlGlobal.load()
        guard let handle = alicia_curl_multi_init() else {
            throw CurlError(code: Int(CURLE_OUT_OF_MEMORY.rawValue), detail: "curl_multi_init failed")
        }
        self.handle = handle
    }

    deinit { alicia_curl_multi_cleanup(handle) }

    /// Wraps `curl_multi_add_handle`.
    package func add(_ easy: CurlEasy) { alicia_curl_multi_add_handle(handle, easy.handle) }

    /// Wraps `curl_multi_remove_handle`.
    package func remove(_ easy: CurlEasy) { alicia_curl_multi_remove_handle(handle, easy.handle) }

    /// Drives the transfers. Wraps `curl_multi_perform`.
    package func perform() {
        var running: Int32 = 0
        alicia_curl_multi_perform(handle, &running)
    }

    /// The result of each finished transfer, as a libcurl code. Wraps `curl_multi_info_read`.
    package func finishedTransfers() -> [Int] {
        var results: [Int] = []
        var left: Int32 = 0
        while let message = alicia_curl_multi_info_read(handle, &left) {
            if message.pointee.msg == CURLMSG_DONE {
                results.append(Int(message.pointee.data.result.rawValue))
            }
        }
        return results
    }

    /// Waits for network activity, `wakeUp`, or the timeout. Wraps `curl_multi_poll`.
    package func poll(timeoutMilliseconds: Int32) {
        var events: Int32 = 0
        alicia_curl_multi_poll(handle, nil, 0, timeoutMilliseconds, &events)
    }

    /// Ends a `poll` early; safe from any thread. Wraps `curl_multi_wakeup`.
    package func wakeUp() { alicia_curl_multi_wakeup(handle) }
}
