import AliciaDemoBackend
import AliciaTestSupport
import Foundation

/// The curl command line as the demo backend's client: a client that is not ours, so the tests
/// check real HTTP/1.1 and not what our own code believes about it.
///
/// Bodies go to stdout (all transfers' bodies, concatenated); for every transfer curl writes its
/// `%{json}` summary and `%{header_json}` headers to stderr after a marker line, which ``run(_:timeout:)``
/// parses into ``Transfer``s.
enum Curl {
    struct Transfer: Sendable {
        let status: Int
        /// curl's exit code for this transfer (0, 18 for a partial body, 28 for a timeout, …).
        let exitCode: Int
        let errorMessage: String?
        /// New connections this transfer opened: 0 means it reused one.
        let connects: Int
        let bytesDownloaded: Int
        /// Seconds from the start until the first response byte, and until the end.
        let firstByteTime: Double
        let totalTime: Double
        /// Header values by lowercased name.
        let headers: [String: [String]]

        func header(_ name: String) -> String? {
            headers[name.lowercased()]?.first
        }
    }

    struct Result: Sendable {
        let body: [UInt8]
        let transfers: [Transfer]
        let stderr: String

        var text: String { String(decoding: body, as: UTF8.self) }

        /// The only transfer; throws if there were several or none.
        func single() throws -> Transfer {
            guard transfers.count == 1 else {
                throw HarnessError("expected one transfer, curl reported \(transfers.count): \(stderr)")
            }
            return transfers[0]
        }
    }

    static let marker = "@@alicia-transfer@@"

    /// `--write-out` for one group of URLs; after `--next` it must be given again.
    static let writeOut = ["--write-out", "%{stderr}\n\(marker)\n%{json}\n%{header_json}\n"]

    /// Runs `curl --silent --max-time 20` with `arguments` (URLs, options, `--next` groups).
    static func run(_ arguments: [String], timeout: Duration = .seconds(30)) async throws -> Result {
        let child = try await ChildProcess.run("curl", ["--silent", "--max-time", "20"] + writeOut + arguments, timeout: timeout)
        return Result(body: child.stdout, transfers: try parse(child.stderrText), stderr: child.stderrText)
    }

    /// curl for one path of `backend`, the token in an `Authorization: Bearer` header.
    static func get(_ backend: DemoBackend, _ path: String, _ options: [String] = []) async throws -> Result {
        try await run(["--header", "Authorization: Bearer \(backend.token)"] + options + [backend.baseURL + path])
    }

    /// The URL of a media path with the token as a query item, as players fetch media.
    static func mediaURL(_ backend: DemoBackend, _ path: String) -> String {
        backend.baseURL + path + "?token=" + backend.token
    }

    private struct Summary: Decodable {
        let http_code: Int
        let exitcode: Int
        let errormsg: String?
        let num_connects: Int
        let size_download: Int
        let time_starttransfer: Double
        let time_total: Double
    }

    private static func parse(_ stderr: String) throws -> [Transfer] {
        var transfers: [Transfer] = []
        for part in stderr.components(separatedBy: "\n\(marker)\n").dropFirst() {
            let lines = part.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
            guard lines.count == 2 else {
                throw HarnessError("cannot parse curl's --write-out output: \(part)")
            }
            let summary = try JSONDecoder().decode(Summary.self, from: Data(lines[0].utf8))
            // header_json is an object of arrays; a transfer that got no response writes "{}".
            let headers = try JSONDecoder().decode([String: [String]].self, from: Data(lines[1].utf8))
            transfers.append(
                Transfer(
                    status: summary.http_code,
                    exitCode: summary.exitcode,
                    errorMessage: summary.errormsg,
                    connects: summary.num_connects,
                    bytesDownloaded: summary.size_download,
                    firstByteTime: summary.time_starttransfer,
                    totalTime: summary.time_total,
                    headers: Dictionary(uniqueKeysWithValues: headers.map { ($0.key.lowercased(), $0.value) })
                )
            )
        }
        return transfers
    }
}
