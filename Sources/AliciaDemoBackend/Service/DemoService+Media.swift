extension DemoService {
    /// `GET|HEAD /api/audio/<name>`: a synthesized WAV, whole (200) or one range of it (206).
    func audio(_ name: String, _ request: HTTPRequest) -> HTTPReply {
        let latest = latestMessageID.withLock { $0 }
        guard let sound = library.sound(forAudio: name, latestVoiceNote: latest) else {
            return .error(404, "no audio named \(name)")
        }
        return serve(sound, request)
    }

    /// `GET|HEAD /api/morning_briefing/audio/<id>.wav` (v2): the ready briefing's audio, as WAV.
    func briefingAudio(_ name: String, _ request: HTTPRequest) -> HTTPReply {
        guard name == DemoReadings.briefingID + ".wav", conversation.withLock({ $0.briefing }) == .ready else {
            return .error(404, "no briefing audio named \(name)")
        }
        return serve(DemoReadings.briefingSound, request)
    }

    /// `sound` as a WAV, whole (200) or one range of it (206), with the media faults.
    private func serve(_ sound: any SoundSource, _ request: HTTPRequest) -> HTTPReply {
        let wav = SynthesizedWAV(sound)
        let length = wav.byteCount
        let modified = Self.lastModified(revision: faults.mediaRevision)
        var headers: [(name: String, value: String)] = [
            ("Content-Type", "audio/wav"), ("Accept-Ranges", "bytes"),
            ("Last-Modified", HTTPDate.format(modified)),
            ("ETag", "\"\(String(modified * 1_000_000_000, radix: 16))-\(String(length, radix: 16))\""),
        ]
        let range: ClosedRange<Int>
        let status: Int
        // If-Range as aiohttp's FileResponse reads it: an HTTP date at or after the file's
        // modification keeps the Range; an older one sends the whole file; anything that is not a
        // date (an ETag) counts as no If-Range at all.
        let ifRangeStale = request.header("if-range").flatMap(HTTPDate.parse).map { $0 < modified } ?? false
        switch faults.ignoreRange || ifRangeStale ? .whole : ByteRangeRequest(header: request.header("range"), length: length) {
        case .whole:
            range = 0...length - 1
            status = 200
        case .partial(let requested):
            range = requested
            status = 206
            headers.append(("Content-Range", "bytes \(requested.lowerBound)-\(requested.upperBound)/\(length)"))
        case .unsatisfiable:
            var reply = HTTPReply.error(416, "the range is outside the \(length)-byte file", headers: [("Content-Range", "bytes */\(length)")])
            reply.headers.append(("Accept-Ranges", "bytes"))
            return reply
        }
        if faults.ignoreRange {
            // A server without Range support does not advertise it.
            headers.removeAll { $0.name == "Accept-Ranges" }
        }
        let producer = MediaBodyProducer(wav, range: range, faults: faults, stopSignal: stopSignal)
        return HTTPReply(status: status, headers: headers, body: .stream(length: range.count, producer: producer))
    }
}

extension DemoService {
    /// The library's files were made 2025-01-01 00:00:00 UTC; each revision is a day later.
    static func lastModified(revision: UInt8) -> Int {
        1_735_689_600 + Int(revision) * 86_400
    }
}
