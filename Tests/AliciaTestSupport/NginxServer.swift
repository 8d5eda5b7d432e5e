import Foundation
import AliciaLocks

/// A private nginx on 127.0.0.1 serving a fixture directory, with a parseable access log.
///
/// Locations (every file of ``fixturesDirectory`` under each of the first three):
/// - `/media/NAME`: plain static files, Range honoured (206).
/// - `/norange/NAME`: `max_ranges 0`, a server that ignores Range and answers 200 with the whole file.
/// - `/slow/NAME`: `limit_rate` (``slowRate``, e.g. "256k" bytes per second).
/// - `/redirect/NAME`: a 302 to `/media/NAME`.
/// - `/hop1/NAME`: a 302 to `/hop2/NAME` (query kept), a 302 to `/cdn/NAME` (query dropped), as a
///   podcast's tracking prefixes redirect to its host; after ``expireRedirectTarget()``, `/cdn/`
///   answers 410 and `/hop2/` sends to `/cdn2/` instead (a signed URL that expired).
/// - `/away/NAME`: a 302 to `http://localhost:PORT/media/NAME` with the query kept: another host
///   (by name) for the same server, which must see neither an `Authorization` header nor more
///   than the redirect passed on.
/// - `/moved/NAME`: a 301 (permanent) to `/media/NAME`: a feed that moved for good.
/// - `/busy/NAME`: a 503 with `Retry-After: 120`.
/// - `/status/CODE…` for 401, 403, 404, 410, 500, 502, 503: that status, whatever follows the code.
///
/// With `tls`, the same locations are also served over HTTPS on ``tlsPort``, with a self-signed
/// certificate for 127.0.0.1 made by `openssl` (``certificatePath``: the CA to trust).
///
/// nginx runs in the foreground (`daemon off`) as a child of the test process, in its own process
/// group, with its config, logs, pid file and temp paths in a private temp directory. As root the
/// config says `user root;`: the default worker user (nobody) could not read the 0700 temp directory.
public final class NginxServer: Sendable {
    /// One line of the access log.
    public struct Entry: Sendable, Equatable, CustomStringConvertible {
        public let method: String
        /// The request URI with its query string.
        public let uri: String
        public let status: Int
        /// Body bytes written to the socket (for an aborted transfer, what was sent before the abort).
        public let bytesSent: Int
        /// The request's Range header, nil if it had none.
        public let range: String?
        /// The Host the client asked for (`127.0.0.1:PORT`, `localhost:PORT`).
        public let host: String
        /// The request carried an `Authorization` header (its value is not logged).
        public let authorization: Bool

        public init(method: String, uri: String, status: Int, bytesSent: Int, range: String?,
                    host: String = "", authorization: Bool = false) {
            self.method = method
            self.uri = uri
            self.status = status
            self.bytesSent = bytesSent
            self.range = range
            self.host = host
            self.authorization = authorization
        }

        public var description: String {
            "\(method) \(uri) → \(status), \(bytesSent) bytes, Range: \(range ?? "none")"
        }
    }

    public let port: Int
    /// The HTTPS port (with `tls`), and the self-signed certificate it presents.
    public let tlsPort: Int?
    public let certificatePath: String?
    public let fixturesDirectory: String
    public let slowRate: String

    private let directory: TemporaryDirectory
    private let running: Locked<ChildProcess>
    private var process: ChildProcess { running.withLock { $0 } }
    private let readyToken: String

    /// Starts nginx on a free port and waits (at most 5 s per attempt) until it answers.
    /// Throws, failing the test, if nginx is missing or will not start.
    public init(slowRate: String = "256k", tls: Bool = false) throws {
        try TestEnvironment.requireNginx()
        self.slowRate = slowRate
        directory = try TemporaryDirectory(prefix: "nginx")
        fixturesDirectory = directory.file("files")
        for subdirectory in ["files", "logs", "tmp"] {
            try FileManager.default.createDirectory(atPath: directory.file(subdirectory), withIntermediateDirectories: true)
        }
        readyToken = "alicia-nginx-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        var tlsSettings: (port: Int, certificate: String, key: String)?
        if tls {
            let (certificate, key) = (directory.file("cert.pem"), directory.file("key.pem"))
            let made = try ChildProcess.runBlocking("openssl", [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
                "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", certificate,
            ], timeout: .seconds(60))
            guard made.status == 0 else { throw HarnessError("openssl could not make a certificate: \(made.stderrText)") }
            tlsSettings = (try LoopbackPort.unused(), certificate, key)
        }
        tlsPort = tlsSettings?.port
        certificatePath = tlsSettings?.certificate

        var lastFailure = "no attempt made"
        // The port is free when picked but another process may take it before nginx binds: retry.
        for _ in 0..<5 {
            let candidate = try LoopbackPort.unused()
            let configPath = directory.file("nginx.conf")
            try Self.config(directory: directory.path, port: candidate, slowRate: slowRate, readyToken: readyToken, tls: tlsSettings)
                .write(toFile: configPath, atomically: true, encoding: .utf8)
            let child = try ChildProcess(
                "nginx",
                ["-p", directory.path + "/", "-c", configPath, "-e", directory.file("logs/startup.log"), "-g", "daemon off;"]
            )
            if Self.waitUntilReady(child, port: candidate, token: readyToken) {
                port = candidate
                running = Locked(child)
                return
            }
            child.send(SIGKILL)
            let result = child.waitBlocking(timeout: .seconds(5))
            let log = (try? String(contentsOfFile: directory.file("logs/error.log"), encoding: .utf8)) ?? ""
            let startupLog = (try? String(contentsOfFile: directory.file("logs/startup.log"), encoding: .utf8)) ?? ""
            lastFailure = "status \(result.status); \(startupLog) \(log) \(result.stderrText)"
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        throw HarnessError("nginx did not start on 127.0.0.1: \(lastFailure)")
    }

    deinit {
        stop()
    }

    /// `http://127.0.0.1:PORT` + `path` (which starts with a slash).
    public func url(_ path: String) -> String {
        precondition(path.hasPrefix("/"), "NginxServer.url: \(path.debugDescription) must start with /")
        return "http://127.0.0.1:\(port)\(path)"
    }

    /// `https://127.0.0.1:TLSPORT` + `path` (a server started with `tls`).
    public func httpsURL(_ path: String) -> String {
        precondition(path.hasPrefix("/") && tlsPort != nil, "NginxServer.httpsURL: \(path.debugDescription) needs a / and a server with tls")
        return "https://127.0.0.1:\(tlsPort ?? 0)\(path)"
    }

    /// Puts `bytes` into the fixture directory as `name`, served as `/media/name` and the others.
    public func serve(_ bytes: [UInt8], as name: String) throws {
        let path = fixturesDirectory + "/" + name
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        } catch {
            throw HarnessError("cannot write fixture \(path): \(error)")
        }
        chmod(path, 0o644)
    }

    /// Puts `fixture` into the fixture directory as `name`.
    public func serve(_ fixture: WAVFixture, as name: String) throws {
        try serve(fixture.bytes, as: name)
    }

    /// The access log as written so far: one entry per finished request, in order. nginx writes an
    /// entry when a request ends (a transfer the client aborted ends when nginx notices the closed
    /// connection), without buffering; see ``settledAccessLog(timeout:)``.
    public func accessLog() -> [Entry] {
        guard let text = try? String(contentsOfFile: directory.file("logs/access.log"), encoding: .utf8) else {
            return []
        }
        return text.split(separator: "\n").compactMap(Self.parse)
    }

    /// The access log once nginx has no connection open other than the status query itself, so every
    /// request of a client that has exited is logged; at most `timeout` of waiting.
    public func settledAccessLog(timeout: Duration = .seconds(5)) async -> [Entry] {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if activeConnections() == 1 {
                break
            }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return accessLog()
    }

    /// nginx's "Active connections" (stub_status), counting the connection that asks; nil if the
    /// query failed.
    public func activeConnections() -> Int? {
        guard let response = try? LoopbackHTTP.get(port: port, path: "/alicia-status"), response.status == 200 else {
            return nil
        }
        let text = String(decoding: response.body, as: UTF8.self)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Active connections:") }) else {
            return nil
        }
        return Int(line.dropFirst("Active connections:".count).trimmingCharacters(in: .whitespaces))
    }

    /// Takes `name` out of the fixture directory: every location answers 404 for it from now on.
    public func remove(_ name: String) throws {
        do {
            try FileManager.default.removeItem(atPath: fixturesDirectory + "/" + name)
        } catch {
            throw HarnessError("cannot remove fixture \(name): \(error)")
        }
    }

    /// Makes the end of the `/hop1/` chain go away: `/cdn/` answers 410 from now on, and the
    /// chain ends at `/cdn2/` instead.
    public func expireRedirectTarget() throws {
        guard FileManager.default.createFile(atPath: fixturesDirectory + "/.expired", contents: Data()) else {
            throw HarnessError("cannot write \(fixturesDirectory)/.expired")
        }
    }

    /// Starts nginx again after `stop()`, on the same port with the same files: a server that went
    /// away and came back.
    public func restart() throws {
        stop()
        let configPath = directory.file("nginx.conf")
        for _ in 0..<20 {
            let child = try ChildProcess(
                "nginx",
                ["-p", directory.path + "/", "-c", configPath, "-e", directory.file("logs/startup.log"), "-g", "daemon off;"]
            )
            if Self.waitUntilReady(child, port: port, token: readyToken) {
                running.withLock { $0 = child }
                return
            }
            child.send(SIGKILL)
            _ = child.waitBlocking(timeout: .seconds(5))
            usleep(100_000)
        }
        throw HarnessError("nginx did not start again on port \(port)")
    }

    /// Stops nginx (SIGTERM, then SIGKILL to its process group after 5 s); idempotent.
    public func stop() {
        guard process.isRunning else { return }
        process.send(SIGTERM)
        _ = process.waitBlocking(timeout: .seconds(5))
    }

    private static func waitUntilReady(_ child: ChildProcess, port: Int, token: String) -> Bool {
        let deadline = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < deadline && child.isRunning {
            // Checking the token, not just the port, proves that it is our nginx that answers.
            if let response = try? LoopbackHTTP.get(port: port, path: "/alicia-ready"),
                String(decoding: response.body, as: UTF8.self) == token
            {
                return true
            }
            usleep(20_000)
        }
        return false
    }

    private static func parse(_ line: Substring) -> Entry? {
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
        guard fields.count >= 5, let status = Int(fields[2]), let bytes = Int(fields[3]) else {
            return nil
        }
        var range = String(fields[4])
        if range.hasPrefix("\""), range.hasSuffix("\""), range.count >= 2 {
            range = String(range.dropFirst().dropLast())
        }
        return Entry(
            method: String(fields[0]),
            uri: String(fields[1]),
            status: status,
            bytesSent: bytes,
            range: range == "-" || range.isEmpty ? nil : range,
            host: fields.count > 5 ? String(fields[5]) : "",
            authorization: fields.count > 6 && fields[6] == "present"
        )
    }

    private static func config(directory: String, port: Int, slowRate: String, readyToken: String,
                               tls: (port: Int, certificate: String, key: String)?) -> String {
        let secure = tls.map { tls in
            """
                    listen 127.0.0.1:\(tls.port) ssl;
                    ssl_certificate \(tls.certificate);
                    ssl_certificate_key \(tls.key);
            """
        } ?? ""
        return """
            \(geteuid() == 0 ? "user root;" : "")
            worker_processes 1;
            pid \(directory)/logs/nginx.pid;
            lock_file \(directory)/logs/nginx.lock;
            error_log \(directory)/logs/error.log warn;
            events { worker_connections 256; }
            http {
                map $http_authorization $alicia_auth { "" "-"; default "present"; }
                log_format alicia '$request_method\t$request_uri\t$status\t$body_bytes_sent\t"$http_range"\t$http_host\t$alicia_auth';
                # No buffer= and no gzip: each entry is written as its request ends.
                access_log \(directory)/logs/access.log alicia;
                client_body_temp_path \(directory)/tmp/client_body;
                proxy_temp_path \(directory)/tmp/proxy;
                fastcgi_temp_path \(directory)/tmp/fastcgi;
                uwsgi_temp_path \(directory)/tmp/uwsgi;
                scgi_temp_path \(directory)/tmp/scgi;
                types {
                    audio/wav wav;
                    audio/mpeg mp3;
                    audio/mp4 m4a m4b mp4;
                    audio/aac aac;
                    audio/flac flac;
                    audio/ogg ogg opus;
                    text/plain txt;
                }
                default_type application/octet-stream;
                sendfile on;
                server {
                    listen 127.0.0.1:\(port);
            \(secure)
                    server_name localhost;
            \(locations(directory: directory, port: port, slowRate: slowRate, readyToken: readyToken))
                }
            }

            """
    }

    /// The test server's locations: the files as they are, without Range, slow, behind redirects
    /// of every kind, gone (410) once `.expired` is there, busy (503 with Retry-After), and bare
    /// statuses under `/status/CODE`.
    private static func locations(directory: String, port: Int, slowRate: String, readyToken: String) -> String {
        let statusLocations = [401, 403, 404, 410, 500, 502, 503].map { code in
            "location ^~ /status/\(code) { return \(code); }"
        }.joined(separator: "\n")
        return """
            location = /alicia-ready { access_log off; default_type text/plain; return 200 "\(readyToken)"; }
            location = /alicia-status { access_log off; stub_status; }
            location /media/ { alias \(directory)/files/; }
            location /norange/ { alias \(directory)/files/; max_ranges 0; }
            location /slow/ { alias \(directory)/files/; limit_rate \(slowRate); }
            location /redirect/ { rewrite ^/redirect/(.*)$ /media/$1 redirect; }
            location /hop1/ { rewrite ^/hop1/(.*)$ /hop2/$1 redirect; }
            location /hop2/ {
                if (-f \(directory)/files/.expired) { rewrite ^/hop2/(.*)$ /cdn2/$1? redirect; }
                rewrite ^/hop2/(.*)$ /cdn/$1? redirect;
            }
            location /cdn/ {
                if (-f \(directory)/files/.expired) { return 410; }
                alias \(directory)/files/;
            }
            location /cdn2/ { alias \(directory)/files/; }
            location /moved/ { rewrite ^/moved/(.*)$ /media/$1 permanent; }
            location /busy/ { add_header Retry-After 120 always; return 503; }
            location /away/ { rewrite ^/away/(.*)$ http://localhost:\(port)/media/$1 redirect; }
            \(statusLocations)
            """
    }
}
