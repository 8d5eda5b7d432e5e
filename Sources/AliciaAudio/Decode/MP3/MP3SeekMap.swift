/// Where an MP3's frames lie in its bytes, from what its first frames say: the byte offset at which
/// to look for MPEG frame `n`, and which frame the one found at an offset is.
///
/// A piecewise-linear map between frame indexes and byte offsets, with points from
/// - a constant bitrate: one line, `audioStart + n × meanFrameBytes`, exact to the frame (frames
///   differ by at most the one padding byte, which the mean spreads out);
/// - a VBRI table: a point per run of frames, exact at each run's start;
/// - a Xing table of contents: a point per percent of the duration, each at a 256th of the
///   stream's bytes (rounded down by the encoder: half a step is added back), so a frame found
///   between them is an estimate (see DECISIONS.md, "MP3 seeking");
/// - the frame and byte counts alone: one line at the mean bitrate, an estimate;
/// - neither (a VBR file without an info frame): one line at the mean of the frames walked at its
///   start, an estimate.
struct MP3SeekMap: Equatable, Sendable {
    /// The first audio frame (after any info frame).
    let audioStart: Int64
    /// Frame indexes and byte offsets of the points, both rising.
    private let frames: [Double]
    private let bytes: [Double]
    /// The frame an offset maps to is the frame there (constant bitrate), not an estimate.
    let isExact: Bool

    /// A map for a stream whose first audio frame is at `audioStart`, whose info frame (if any)
    /// starts at `tagStart`, with `header` the first audio frame's. `constantBitrate`: the first
    /// frames all had one bitrate and no tag says otherwise. Nil when nothing gives a rate.
    init?(audioStart: Int64, tagStart: Int64, header: MPEGAudioHeader, info: MP3InfoFrame?, constantBitrate: Bool,
          sampledFrameBytes: Double? = nil) {
        self.audioStart = audioStart
        let start = Double(audioStart)
        if constantBitrate && info?.kind != .xing && info?.kind != .vbri {
            frames = [0, 1]
            bytes = [start, start + header.meanFrameBytes]
            isExact = true
            return
        }
        isExact = false
        if let info, let total = info.frames, total > 0, let streamBytes = info.bytes, streamBytes > 0 {
            let end = Double(tagStart + streamBytes)
            if let sizes = info.vbriSizes, !sizes.isEmpty, info.framesPerEntry > 0 {
                var f: [Double] = [0], b: [Double] = [start]
                for size in sizes where f.last! < Double(total) {
                    f.append(min(Double(total), f.last! + Double(info.framesPerEntry)))
                    b.append(b.last! + Double(size))
                }
                (frames, bytes) = (f, b)
                return
            }
            if let toc = info.toc, toc.count == 100 {
                var f: [Double] = [0], b: [Double] = [start]
                for percent in 1..<100 {
                    let byte = Double(tagStart) + (Double(toc[percent]) + 0.5) / 256 * Double(streamBytes)
                    f.append(Double(total) * Double(percent) / 100)
                    b.append(min(end, max(b.last!, byte)))
                }
                f.append(Double(total))
                b.append(max(b.last!, end))
                (frames, bytes) = (f, b)
                return
            }
            frames = [0, Double(total)]
            bytes = [start, max(start + 1, end)]
            return
        }
        // No counts: the mean of the frames walked at the start (else the first one's), the best there is.
        guard header.bitrate > 0 else { return nil }
        frames = [0, 1]
        bytes = [start, start + (sampledFrameBytes ?? header.meanFrameBytes)]
    }

    /// The byte offset at which MPEG frame `frame` starts (or, for an estimate, is thought to).
    func byteOffset(ofFrame frame: Int64) -> Int64 {
        Int64(Self.interpolate(Double(max(0, frame)), from: frames, to: bytes).rounded(.down))
    }

    /// The MPEG frame that starts at `offset`.
    func frame(atByte offset: Int64) -> Int64 {
        let estimate = Self.interpolate(Double(max(audioStart, offset)), from: bytes, to: frames)
        return Int64(estimate.rounded())
    }

    /// `x` mapped through the polyline from `xs` to `ys` (both rising), extended past its ends
    /// along the last segment.
    private static func interpolate(_ x: Double, from xs: [Double], to ys: [Double]) -> Double {
        var upper = 1
        while upper < xs.count - 1 && xs[upper] < x { upper += 1 }
        let (x0, x1, y0, y1) = (xs[upper - 1], xs[upper], ys[upper - 1], ys[upper])
        guard x1 > x0 else { return y1 }
        return y0 + (x - x0) * (y1 - y0) / (x1 - x0)
    }
}
