internal import CMicroHTTPD
import AliciaLocks

#if canImport(Glibc)
import Glibc
#endif

/// A libmicrohttpd daemon on 127.0.0.1 that hands every complete request to a handler.
///
/// Threads: libmicrohttpd's own listening thread accepts connections and gives each one a thread of
/// its own (`MHD_USE_THREAD_PER_CONNECTION`), which parses requests, calls the handler and runs the
/// body producers; none of them is ours. Keep-alive, Content-Length, chunked encoding, HEAD (no body)
/// and `Expect: 100-continue` are libmicrohttpd's work.
///
/// Owns the `MHD_Daemon`. The callbacks reach Swift through a ``MHDRequestDispatcher`` passed
/// unretained as their closure: ``stop()`` (and `deinit`) calls `MHD_stop_daemon`, which joins every
/// libmicrohttpd thread, before the dispatcher can be released, so no callback outlives it.
final class MHDDaemon: Sendable {
    /// The port the daemon is bound to (the kernel's choice when asked for port 0).
    let port: Int

    /// The daemon until ``stop()``, nil after.
    private let handle: Locked<DaemonHandle?>
    private let dispatcher: MHDRequestDispatcher

    /// How long an idle keep-alive connection keeps its thread, in seconds.
    private static let idleTimeoutSeconds: UInt32 = 60

    /// Starts serving on 127.0.0.1:`port` (0: a free port the kernel picks).
    ///
    /// Wraps `MHD_start_daemon`.
    init(port: Int, handler: any HTTPRequestHandler) throws(DemoBackendError) {
        guard (0...65_535).contains(port) else {
            throw DemoBackendError("port \(port) is outside 0...65535")
        }
        let dispatcher = MHDRequestDispatcher(handler: handler)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port)).bigEndian
        // 127.0.0.1 only: the demo backend is never reachable from another machine.
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        let context = Unmanaged.passUnretained(dispatcher).toOpaque()
        // AUTO picks poll() for the per-connection threads (no FD_SETSIZE limit on descriptors).
        let flags = MHD_USE_AUTO_INTERNAL_THREAD.rawValue | MHD_USE_THREAD_PER_CONNECTION.rawValue
        if let failure = alicia_mhd_load() {
            throw DemoBackendError("cannot serve the demo backend: libmicrohttpd could not be loaded: " + String(cString: failure))
        }
        errno = 0
        let started = alicia_mhd_start(
            UInt32(flags),
            &address,
            Self.idleTimeoutSeconds,
            { context, connection, url, method, _, uploadData, uploadSize, requestContext in
                MHDRequestDispatcher.from(context).access(
                    connection: connection,
                    url: url,
                    method: method,
                    uploadData: uploadData,
                    uploadSize: uploadSize,
                    requestContext: requestContext
                )
            },
            { _, _, requestContext, _ in
                MHDRequestDispatcher.completed(requestContext: requestContext)
            },
            { _, uri, _ in
                MHDRequestDispatcher.begin(uri: uri)
            },
            context
        )
        guard let started else {
            let reason = errno == 0 ? "libmicrohttpd refused the options" : String(cString: strerror(errno))
            throw DemoBackendError("cannot listen on 127.0.0.1:\(port): \(reason)")
        }
        let bound = Int(alicia_mhd_bound_port(started))
        guard bound != 0 else {
            alicia_mhd_stop_daemon(started)
            throw DemoBackendError("libmicrohttpd did not report the port it bound")
        }
        self.port = bound
        self.dispatcher = dispatcher
        handle = Locked(DaemonHandle(pointer: started))
    }

    /// Stops accepting, closes every connection and joins libmicrohttpd's threads. Idempotent.
    ///
    /// A body producer blocked in a wait must be woken first (the backend's ``StopSignal``): the
    /// join waits for it.
    ///
    /// Wraps `MHD_stop_daemon`.
    func stop() {
        // The connection threads never take this lock, so joining them while holding it is safe.
        handle.withLock { handle in
            if let pointer = handle?.pointer {
                alicia_mhd_stop_daemon(pointer)
            }
            handle = nil
        }
    }

    deinit {
        stop()
    }
}

/// The `MHD_Daemon` pointer, to keep it in a `Locked`.
private struct DaemonHandle: @unchecked Sendable {
    // @unchecked: the pointer is only used under MHDDaemon.handle's lock (MHD_stop_daemon, once).
    let pointer: OpaquePointer
}
