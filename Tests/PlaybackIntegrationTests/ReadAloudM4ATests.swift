import AliciaTestSupport
import Foundation
import Testing

/// Read-aloud as Alicia 2.0 serves it: a playlist synthesis still warming is voiced through
/// `/api/speak`, asked as the app asks (`"<title>.\n\n<body>"`, `kind`, `required_backend`), and
/// its chunks come as AAC in M4A (`/api/speech/<name>`): three chunks cut from one tone join with no
/// seam. The backend is a small Python server of the test's own (Range requests included).
@Suite("Read-aloud in M4A")
struct ReadAloudM4ATests {
    static let rate = 24_000
    static let frequency = 400.0

    static let server = #"""
        import http.server, json, os, re, sys
        directory, port_file, log_file = sys.argv[1:4]
        CHUNKS = [("c%d.m4a" % i, 2.0, text) for i, text in enumerate(["Small lights,", "carried home", "at night."])]

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def reply(self, status, body, kind="application/json", extra=()):
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                for name, value in extra:
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self):
                path = self.path.split("?")[0]
                if path == "/api/playlists":
                    item = {"id": "synthesis:Lanterns", "kind": "synthesis", "title": "Lanterns",
                            "body": "Small lights, carried home at night.", "duration": 6.0, "speech": {"chunks": []}}
                    return self.reply(200, json.dumps([{"id": "p1", "name": "Readings", "duration": 6.0, "ready": 0, "items": [item]}]).encode())
                match = re.match(r"^/api/speech/(c[0-9]\.m4a)$", path)
                if not match:
                    return self.reply(404, b'{"error": "not found"}')
                data = open(os.path.join(directory, match.group(1)), "rb").read()
                wanted = re.match(r"bytes=(\d+)-(\d*)", self.headers.get("Range", ""))
                if not wanted:
                    return self.reply(200, data, "audio/mp4", [("Accept-Ranges", "bytes")])
                start = int(wanted.group(1))
                end = int(wanted.group(2)) if wanted.group(2) else len(data) - 1
                end = min(end, len(data) - 1)
                self.reply(206, data[start:end + 1], "audio/mp4",
                           [("Accept-Ranges", "bytes"), ("Content-Range", "bytes %d-%d/%d" % (start, end, len(data)))])

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with open(log_file, "a") as log:
                    log.write(body.decode() + "\n")
                if self.path.split("?")[0] != "/api/speak":
                    return self.reply(404, b'{"error": "not found"}')
                chunks = [{"url": "/api/speech/" + name, "duration": seconds, "text": text, "timing_status": "ready",
                           "cues": [{"start": 0.1, "end": seconds - 0.1, "text": text}]} for name, seconds, text in CHUNKS]
                self.reply(200, json.dumps({"status": "ready", "chunks": chunks, "duration": 6.0,
                                            "spoken_text": "Small lights, carried home at night.", "timing_status": "ready"}).encode())

        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        with open(port_file + ".tmp", "w") as out:
            out.write(str(server.server_address[1]))
        os.rename(port_file + ".tmp", port_file)
        server.serve_forever()
        """#

    /// Three 2-second chunks of one continuous tone, each encoded on its own (AAC's priming and
    /// padding in each: trimmed by the edit list ffmpeg writes).
    static func chunks(in directory: TemporaryDirectory) throws {
        let tone = directory.file("tone.wav")
        try PodcastFixture.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=\(Int(frequency)):sample_rate=\(rate):duration=6",
                                   "-ac", "1", "-c:a", "pcm_s16le", tone])
        for index in 0..<3 {
            try PodcastFixture.ffmpeg(["-ss", "\(index * 2)", "-t", "2", "-i", tone, "-c:a", "aac", "-b:a", "96k",
                                       "-movflags", "+faststart", directory.file("c\(index).m4a")])
        }
    }

    @Test("a warming synthesis is asked for as the app asks; its three M4A chunks of one tone join with no seam")
    func threeChunksJoinWithNoSeam() async throws {
        try ControlSocketTests.requireTools(["python3", "ffmpeg"])
        let directory = try TemporaryDirectory(prefix: "m4a-speech")
        try Self.chunks(in: directory)
        let script = try directory.write(Array(Self.server.utf8), as: "server.py")
        let server = try ChildProcess("python3", [script, directory.path, directory.file("port"), directory.file("asked")])
        defer {
            server.send(SIGKILL)
            _ = server.waitBlocking(timeout: .seconds(10))
        }
        var port: String?
        for _ in 0..<400 where port == nil {
            port = try? String(contentsOfFile: directory.file("port"), encoding: .utf8)
            if port == nil { try await Task.sleep(for: .milliseconds(25)) }
        }
        let base = "http://127.0.0.1:" + (try #require(port, "the Python backend did not start"))
        var environment = try BackendCommandTests.isolatedEnvironment(nil)
        environment["ALICIA_BASE_URL"] = base
        environment["ALICIA_TOKEN"] = "m4a-token"
        let capture = try await PipeSinkCapture(format: .s16le, rate: Self.rate, channels: 1)
        let result = try await Playback.run(["play", "playlist:Readings", "--device", capture.sinkName], environment: environment)
        let heard = AudioCompare.trimmingSilentFrames(await capture.finishInt16(), channels: 1)
        #expect(result.status == 0, "\(result)")

        let asked = try String(contentsOfFile: directory.file("asked"), encoding: .utf8).split(separator: "\n")
        let speak = try #require(asked.first.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        #expect(speak["text"] as? String == "Lanterns.\n\nSmall lights, carried home at night.", "\(speak)")
        #expect(speak["kind"] as? String == "synthesis", "\(speak)")

        // 6 s of tone, to the sample: no priming or padding heard at either join.
        #expect(abs(heard.count - 6 * Self.rate) <= 48, "\(heard.count) samples of tone, not \(6 * Self.rate)")
        // The join measured: the tone's zero crossings inside each chunk (away from its edges, where
        // AAC's own error is largest) against one grid of half periods. A seam of n samples (a gap,
        // priming heard, an overlap) moves the chunks after it n samples off the first one's grid.
        let halfPeriod = Double(Self.rate) / Self.frequency / 2
        var crossings: [Double] = []
        for index in 1..<heard.count where (heard[index - 1] < 0) != (heard[index] < 0) {
            let a = Double(heard[index - 1]), b = Double(heard[index])
            crossings.append(Double(index - 1) + a / (a - b))
        }
        let origin = try #require(crossings.first)
        let chunk = 2 * Self.rate
        let offsets = (0..<3).map { part -> Double in
            let inside = crossings.filter { $0 > Double(part * chunk + 2000) && $0 < Double((part + 1) * chunk - 2000) }
            let residuals = inside.map { crossing -> Double in
                let steps = ((crossing - origin) / halfPeriod).rounded()
                return crossing - origin - steps * halfPeriod
            }
            return residuals.reduce(0, +) / Double(max(1, residuals.count))
        }
        let seams = [offsets[1] - offsets[0], offsets[2] - offsets[1]]
        #expect(seams.allSatisfy { abs($0) < 0.5 }, "the joins are \(seams) samples off: a seam")
    }
}
