import CFLAC

/// A rendered FLAC file's tags, chapters and cover, written in place by libFLAC's metadata
/// interface: the encoder's comment and picture blocks replaced by ours (one VORBIS_COMMENT, as
/// the format allows), padding used where it fits.
enum FLACComments {
    static func write(_ tags: RenderTags, to path: String) -> RenderProblem? {
        guard let chain = FLAC__metadata_chain_new() else { return RenderProblem("out of memory writing \(path)'s tags") }
        defer { FLAC__metadata_chain_delete(chain) }
        guard FLAC__metadata_chain_read(chain, path) != 0 else { return problem(chain, path) }
        guard let iterator = FLAC__metadata_iterator_new() else { return RenderProblem("out of memory writing \(path)'s tags") }
        defer { FLAC__metadata_iterator_delete(iterator) }
        FLAC__metadata_iterator_init(iterator, chain)
        // Ours replace the encoder's (the iterator stays on the padding left in their place).
        repeat {
            let type = FLAC__metadata_iterator_get_block_type(iterator)
            if type == FLAC__METADATA_TYPE_VORBIS_COMMENT || type == FLAC__METADATA_TYPE_PICTURE {
                _ = FLAC__metadata_iterator_delete_block(iterator, 1)
            }
        } while FLAC__metadata_iterator_next(iterator) != 0
        FLAC__metadata_iterator_init(iterator, chain)
        guard let comments = commentBlock(tags), FLAC__metadata_iterator_insert_block_after(iterator, comments) != 0 else {
            return RenderProblem("out of memory writing \(path)'s tags")
        }
        if let picture = pictureBlock(tags) {
            guard FLAC__metadata_iterator_insert_block_after(iterator, picture) != 0 else { return problem(chain, path) }
        }
        FLAC__metadata_chain_sort_padding(chain)
        guard FLAC__metadata_chain_write(chain, 1, 0) != 0 else { return problem(chain, path) }
        return nil
    }

    private static func commentBlock(_ tags: RenderTags) -> UnsafeMutablePointer<FLAC__StreamMetadata>? {
        guard let block = FLAC__metadata_object_new(FLAC__METADATA_TYPE_VORBIS_COMMENT) else { return nil }
        for comment in tags.vorbisComments() {
            var entry = FLAC__StreamMetadata_VorbisComment_Entry()
            let bytes = Array(comment.utf8)
            let appended = bytes.withUnsafeBufferPointer { buffer -> Bool in
                entry.length = UInt32(buffer.count)
                entry.entry = UnsafeMutablePointer(mutating: buffer.baseAddress)
                return FLAC__metadata_object_vorbiscomment_append_comment(block, entry, 1) != 0
            }
            guard appended else {
                FLAC__metadata_object_delete(block)
                return nil
            }
        }
        return block
    }

    private static func pictureBlock(_ tags: RenderTags) -> UnsafeMutablePointer<FLAC__StreamMetadata>? {
        guard let (bytes, mime) = tags.cover(), let block = FLAC__metadata_object_new(FLAC__METADATA_TYPE_PICTURE) else { return nil }
        block.pointee.data.picture.type = FLAC__STREAM_METADATA_PICTURE_TYPE_FRONT_COVER
        var mimeBytes = Array(mime.utf8CString)
        var data = bytes
        let set = mimeBytes.withUnsafeMutableBufferPointer { m in
            data.withUnsafeMutableBufferPointer { d in
                FLAC__metadata_object_picture_set_mime_type(block, m.baseAddress, 1) != 0
                    && FLAC__metadata_object_picture_set_data(block, d.baseAddress, UInt32(d.count), 1) != 0
            }
        }
        guard set else {
            FLAC__metadata_object_delete(block)
            return nil
        }
        return block
    }

    private static func problem(_ chain: OpaquePointer, _ path: String) -> RenderProblem {
        let status = FLAC__metadata_chain_status(chain)
        return RenderProblem("\(path): its tags could not be written (libFLAC's chain status \(status.rawValue))")
    }
}
