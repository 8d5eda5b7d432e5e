#if canImport(Glibc)
import Glibc
#endif
import COgg

/// An Ogg Opus file copied with a comment header of our own (the tags and the chapters, known only
/// once everything is encoded): the identification page as it is, new comment pages, then every
/// audio page as it is, renumbered when the comments took another count of pages. Pages are read
/// and written one at a time (libogg), so memory stays flat for a file of any length.
enum OggComments {
    static func copy(_ source: String, to target: String, tags: RenderTags) -> RenderProblem? {
        guard let input = fopen(source, "rb") else { return RenderProblem("\(source): cannot be read back (\(String(cString: strerror(errno))))") }
        defer { fclose(input) }
        guard let output = fopen(target, "wb") else { return RenderProblem("\(target): cannot be written (\(String(cString: strerror(errno))))") }
        var sync = ogg_sync_state()
        ogg_sync_init(&sync)
        defer { ogg_sync_clear(&sync) }
        var copier = Copier(output: output, packet: packet(tags))
        var page = ogg_page()
        var failed = false
        while !failed {
            let result = ogg_sync_pageout(&sync, &page)
            if result == 1 {
                failed = !copier.take(&page)
                continue
            }
            guard let buffer = ogg_sync_buffer(&sync, 65_536) else { failed = true; break }
            let count = fread(buffer, 1, 65_536, input)
            if count == 0 { break }
            ogg_sync_wrote(&sync, count)
        }
        if !failed && !copier.commentsWritten { failed = !copier.writeComments() }
        let closed = fclose(output) == 0
        guard !failed, closed, copier.pages > 0 else {
            return RenderProblem("\(target): the Opus file could not be written with its chapters\(copier.pages == 0 ? " (the encoder wrote no pages)" : "")")
        }
        return nil
    }

    /// The OpusTags packet: the encoder named, then the comments (RFC 7845, section 5.2).
    static func packet(_ tags: RenderTags) -> [UInt8] {
        var comments = tags.vorbisComments()
        if let (bytes, mime) = tags.cover() {
            comments.append("METADATA_BLOCK_PICTURE=" + RenderTags.base64(RenderTags.pictureBlock(bytes, mime: mime)))
        }
        let vendor = "alicia-player (libsndfile, libopus)"
        var packet = Array("OpusTags".utf8) + le32(vendor.utf8.count) + Array(vendor.utf8) + le32(comments.count)
        for comment in comments { packet += le32(comment.utf8.count) + Array(comment.utf8) }
        return packet
    }

    private static func le32(_ value: Int) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24 & 0xFF)]
    }

    /// Pages in, pages out: the first as it is, the old comment pages dropped, ours in their place.
    private struct Copier {
        let output: UnsafeMutablePointer<FILE>
        let packet: [UInt8]
        var pages = 0
        var oldCommentPages = 0
        var newCommentPages = 0
        var serial: Int32 = 0
        var commentsWritten = false

        init(output: UnsafeMutablePointer<FILE>, packet: [UInt8]) {
            self.output = output
            self.packet = packet
        }

        mutating func take(_ page: inout ogg_page) -> Bool {
            defer { pages += 1 }
            if pages == 0 {
                serial = ogg_page_serialno(&page)
                return write(&page)
            }
            // Header pages carry granule position 0; the first audio page does not.
            if !commentsWritten && ogg_page_granulepos(&page) == 0 && ogg_page_eos(&page) == 0 {
                oldCommentPages += 1
                return true
            }
            if !commentsWritten && !writeComments() { return false }
            let shift = newCommentPages - oldCommentPages
            if shift != 0 {
                let number = UInt32(Int(ogg_page_pageno(&page)) + shift)
                for index in 0..<4 { page.header[18 + index] = UInt8(number >> (8 * UInt32(index)) & 0xFF) }
                ogg_page_checksum_set(&page)
            }
            return write(&page)
        }

        mutating func writeComments() -> Bool {
            commentsWritten = true
            var stream = ogg_stream_state()
            guard ogg_stream_init(&stream, serial) == 0 else { return false }
            defer { ogg_stream_clear(&stream) }
            stream.pageno = 1
            stream.b_o_s = 1
            var bytes = packet
            let fed = bytes.withUnsafeMutableBufferPointer { buffer -> Int32 in
                var op = ogg_packet(packet: buffer.baseAddress, bytes: buffer.count, b_o_s: 0, e_o_s: 0, granulepos: 0, packetno: 1)
                return ogg_stream_packetin(&stream, &op)
            }
            guard fed == 0 else { return false }
            var page = ogg_page()
            while ogg_stream_flush(&stream, &page) != 0 {
                newCommentPages += 1
                guard write(&page) else { return false }
            }
            return true
        }

        private func write(_ page: inout ogg_page) -> Bool {
            fwrite(page.header, 1, page.header_len, output) == page.header_len && fwrite(page.body, 1, page.body_len, output) == page.body_len
        }
    }
}
