internal import CFFmpeg
import AliciaLocks

/// FFmpeg's libraries, loaded the first time an item needs them (`Sources/CFFmpeg/shim.h` says
/// why they are never linked). Their log goes to the player's debug log, never to the terminal.
enum FFmpegLibrary {
    /// The functions, or why they could not be loaded.
    private struct Loaded: @unchecked Sendable {
        // @unchecked: `api` points at the shim's table, written once before it is handed out and
        // never again.
        let api: UnsafePointer<alicia_ffmpeg_api>?
        let reason: String
    }

    /// A `static let`: loaded once, thread-safely (the shim's own state is touched only here).
    private static let loaded: Loaded = {
        var reason: UnsafePointer<CChar>?
        let api = alicia_ffmpeg(&reason) { level, line in
            guard let line else { return }
            let text = String(cString: line)
            Log.debug(.decode, "FFmpeg (\(level)): \(text.hasSuffix("\n") ? String(text.dropLast()) : text)")
        }
        // Loading relocated and resolved the whole graph: those pages go back at once.
        if api != nil { ResidentMemory.releaseLoadedLibraryPages() }
        return Loaded(api: api, reason: reason.map { String(cString: $0) } ?? "")
    }()

    /// The functions; nil with the loader's reason when a library is missing.
    static func api() -> Result<UnsafePointer<alicia_ffmpeg_api>, LoadFailure> {
        if let api = loaded.api { return .success(api) }
        return .failure(LoadFailure(reason: loaded.reason))
    }

    struct LoadFailure: Error {
        let reason: String
    }

    /// FFmpeg's words for an error code. Wraps `av_strerror`.
    static func message(_ code: Int32, _ api: UnsafePointer<alicia_ffmpeg_api>) -> String {
        var buffer = [CChar](repeating: 0, count: 128)
        _ = api.pointee.strerror(code, &buffer, buffer.count)
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}
