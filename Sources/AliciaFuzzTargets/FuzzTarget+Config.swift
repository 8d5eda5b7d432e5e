import AliciaBackend
import AliciaCache

extension FuzzTarget {
    /// The config file (`key = value`), what its values become (base URL, cache size), and
    /// `config set`'s edit. Property: a value set reads back as it was set.
    static let config = FuzzTarget(name: "config", about: "the config file parser, its values and `config set`") { bytes in
        let text = bytes.text
        guard let entries = try? ConfigFile.entries(text) else { return }
        for entry in entries.prefix(8) {
            if !ConfigFile.keys.contains(entry.key) { _ = ConfigFile.unknownKeyMessage(entry.key) }
            switch entry.key {
            case "base_url":
                if let configuration = try? BackendConfiguration(baseURL: entry.value, token: entry.value) {
                    _ = configuration.mediaURL(for: entry.value)
                    _ = configuration.apiURL(entry.value)
                    _ = configuration.hostAndPort
                }
            case "cache_max_size":
                if let size = ByteSize.parse(entry.value) {
                    precondition(size >= 0, "ByteSize.parse gave a negative size")
                    _ = ByteSize.format(size)
                }
            default:
                break
            }
            guard let key = ConfigFile.knownKey(entry.key), let edited = try? ConfigFile.setting(key, to: entry.value, in: text) else { continue }
            let values: [String: String]
            do throws(ConfigFile.ParseError) {
                values = try ConfigFile.parse(edited)
            } catch {
                preconditionFailure("config set wrote a file it cannot read: \(error.message)")
            }
            precondition(values[key] == entry.value, "config set \(key) did not read back as it was set")
        }
    }
}
