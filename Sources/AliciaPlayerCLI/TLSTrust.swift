#if canImport(Glibc)
import Glibc
#endif
import AliciaBackend
import AliciaLibrary
import AliciaLocks

/// Which CA bundle HTTPS trusts, decided once for every command: `--cacert`, else the environment
/// as curl reads it (`CURL_CA_BUNDLE`, then `SSL_CERT_FILE`), else `ca_file` in the config file,
/// else the system's. libcurl itself reads neither variable: it has its own default bundle.
enum TLSTrust {
    static func caFile(given: String?) -> String? {
        if let given { return given }
        for name in ["CURL_CA_BUNDLE", "SSL_CERT_FILE"] {
            if let value = getenv(name).map({ String(cString: $0) }), !value.isEmpty {
                return readable(value, "\(name)=\(value)")
            }
        }
        guard let configured = ConfigurationLoader.fileValue("ca_file", environment: BackendSession.environment()),
              !configured.isEmpty else { return nil }
        return readable(configured, "ca_file = \(configured) in the config file")
    }

    /// `path`, when it can be read; else a warning naming where it came from, and the system's.
    private static func readable(_ path: String, _ origin: String) -> String? {
        guard access(path, R_OK) == 0 else {
            Console.fail("warning: \(origin) is not a readable file: trusting the system's certificates")
            return nil
        }
        return path
    }
}
