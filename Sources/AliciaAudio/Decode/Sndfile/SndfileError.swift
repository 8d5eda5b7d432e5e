internal import CSndfile

/// A libsndfile error: its code and its own words.
struct SndfileError: Error, Sendable, Equatable {
    let code: Int32
    let message: String

    static let unrecognisedFormat = Int32(SF_ERR_UNRECOGNISED_FORMAT)
    static let system = Int32(SF_ERR_SYSTEM)
    static let malformedFile = Int32(SF_ERR_MALFORMED_FILE)
    static let unsupportedEncoding = Int32(SF_ERR_UNSUPPORTED_ENCODING)
    /// Not libsndfile's: a read was interrupted by a seek or stop while opening.
    static let interrupted: Int32 = -1
}
