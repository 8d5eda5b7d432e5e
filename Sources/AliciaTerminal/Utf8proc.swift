internal import CUtf8proc

/// What the terminal layer asks of utf8proc (Debian's libutf8proc, Unicode 15 in 2.8): a code
/// point's width in columns and grapheme cluster boundaries. The tables are the library's; it
/// holds no state of its own, so any thread may call it.
enum Utf8proc {
    /// 0, 1 or 2 columns: 2 for East Asian Wide and Fullwidth (and emoji presentation), 0 for
    /// controls, combining marks and most format characters, else 1 (Ambiguous counts 1).
    /// Wraps `utf8proc_charwidth`.
    static func charWidth(_ scalar: Unicode.Scalar) -> Int {
        Int(utf8proc_charwidth(utf8proc_int32_t(bitPattern: scalar.value)))
    }

    /// Whether `scalar` is a Hangul vowel (V) or final (T) jamo, which conjoins with what comes
    /// before it. Wraps `utf8proc_get_property`.
    static func isConjoiningJamo(_ scalar: Unicode.Scalar) -> Bool {
        guard let property = utf8proc_get_property(utf8proc_int32_t(bitPattern: scalar.value)) else { return false }
        let boundClass = UInt32(property.pointee.boundclass)
        return boundClass == UTF8PROC_BOUNDCLASS_V.rawValue || boundClass == UTF8PROC_BOUNDCLASS_T.rawValue
    }

    /// Splits a run of scalars into extended grapheme clusters, one scalar at a time.
    struct GraphemeBreaker {
        private var previous: Unicode.Scalar?
        private var state: utf8proc_int32_t = 0

        /// Whether a cluster boundary lies before `scalar` (always before the first).
        /// Wraps `utf8proc_grapheme_break_stateful`.
        mutating func breaks(before scalar: Unicode.Scalar) -> Bool {
            defer { previous = scalar }
            guard let previous else { return true }
            return utf8proc_grapheme_break_stateful(utf8proc_int32_t(bitPattern: previous.value),
                                                    utf8proc_int32_t(bitPattern: scalar.value), &state)
        }
    }
}
