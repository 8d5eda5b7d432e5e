import AliciaDemoBackend
import AliciaTestSupport
import Foundation
import Testing

/// A backend behind a private CA (Caddy's internal CA, a home server's own): nginx over TLS with a
/// certificate of its own serves what the demo backend would, and the CA is given once, by
/// `ca_file` in the config file or `SSL_CERT_FILE`, for every command.
@Suite("TLS trust")
struct TLSTrustTests {
    /// nginx over TLS holding the demo backend's tracks and the shortest episode's audio under
    /// `/media/`, and a home whose config names it as the backend.
    struct Rig {
        let nginx: NginxServer
        let label: String
        let audio: [UInt8]
        let home: TemporaryDirectory

        init() async throws {
            let backend = try DemoBackend(token: "tls-\(UInt32.random(in: 1000...9999))")
            defer { backend.stop() }
            nginx = try NginxServer(tls: true)
            let auth = ["-s", "-H", "Authorization: Bearer \(backend.token)"]
            let tracks = try await ChildProcess.run("curl", auth + [backend.baseURL + "/api/tracks"])
            let list = try #require(try JSONSerialization.jsonObject(with: Data(tracks.stdout)) as? [[String: Any]])
            let episode = try #require(list.filter { $0["fileName"] is String && $0["label"] is String }
                .min { ($0["duration"] as? Double ?? 0) < ($1["duration"] as? Double ?? 0) })
            label = try #require(episode["label"] as? String)
            let fileName = try #require(episode["fileName"] as? String)
            audio = [UInt8](try await ChildProcess.run("curl", ["-s", backend.baseURL + fileName + "?token=" + backend.token]).stdout)
            for (path, bytes) in [("/api/tracks", [UInt8](tracks.stdout)), (fileName, audio)] {
                let directory = nginx.fixturesDirectory + (path as NSString).deletingLastPathComponent
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                try nginx.serve(bytes, as: String(path.dropFirst()))
            }
            home = try TemporaryDirectory(prefix: "tls-home")
        }

        /// A config with the backend over TLS, and `extra` lines.
        func environment(config extra: String) throws -> [String: String] {
            let directory = home.file("config/alicia")
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let config = "base_url = \(nginx.httpsURL("/media"))\ntoken = secret-tls-token\n" + extra
            try Data(config.utf8).write(to: URL(fileURLWithPath: directory + "/config"))
            chmod(directory + "/config", 0o600)
            // Nothing of the machine's trust settings: only what the test gives.
            var environment = ["XDG_CONFIG_HOME": home.file("config"), "SSL_CERT_FILE": "", "CURL_CA_BUNDLE": ""]
            if let server = BackendCommandTests.pulseServer { environment["PULSE_SERVER"] = server }
            try PlayerProcess.isolate(&environment)
            return environment
        }
    }


    @Test("tracks, play and download over HTTPS whose CA only ca_file names; without it, one line that says the fix")
    func caFileServesEveryCommand() async throws {
        let rig = try await Rig()
        let trusted = try rig.environment(config: "ca_file = \(try #require(rig.nginx.certificatePath))\n")
        let tracks = try await Playback.run(["tracks"], environment: trusted)
        #expect(tracks.status == 0 && tracks.stdout.contains(rig.label), "\(tracks)")
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        let played = try await Playback.run(["play", rig.label, "--start", "95%", "--device", capture.sinkName, "--no-report"], environment: trusted)
        let heard = AudioCompare.trimmingSilentFrames(await capture.finishInt16(), channels: 2)
        #expect(played.status == 0 && !heard.isEmpty, "\(played)")
        let downloaded = try await Playback.run(["download", rig.label], environment: trusted)
        #expect(downloaded.status == 0, "\(downloaded)")
        let config = try await Playback.run(["config"], environment: trusted)
        #expect(config.stdout.contains("ca_file") && config.stdout.contains(rig.nginx.certificatePath ?? "?"), "\(config)")

        let untrusted = try rig.environment(config: "")
        let refused = try await Playback.run(["tracks"], environment: untrusted)
        #expect(refused.status == 1, "\(refused)")
        #expect(refused.stderr.contains("ca_file in the config file") && refused.stderr.contains("--cacert"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("secret-tls-token") && !refused.stdout.contains("secret-tls-token"), "the token shown")
        let asCurl = try await Playback.run(["tracks"], environment: untrusted.merging(["SSL_CERT_FILE": rig.nginx.certificatePath ?? ""]) { $1 })
        #expect(asCurl.status == 0 && asCurl.stdout.contains(rig.label), "SSL_CERT_FILE: \(asCurl)")
        let flag = try await Playback.run(["tracks", "--cacert", rig.nginx.certificatePath ?? ""], environment: untrusted)
        #expect(flag.status == 0, "--cacert: \(flag)")
    }
}
