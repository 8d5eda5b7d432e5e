internal import CJSON

/// A JSON document as a Swift value: what cJSON parses, and what it prints.
///
/// Objects keep their members in order; a key given twice keeps its first value when read.
package enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    /// JSON has one number type; integers are exact up to 2^53.
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([Member])

    package struct Member: Equatable, Sendable {
        package var key: String
        package var value: JSONValue

        package init(_ key: String, _ value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// Parses one JSON document (trailing whitespace allowed, anything else after it is not);
    /// nil when `bytes` is not JSON. Wraps `cJSON_ParseWithLengthOpts`.
    package init?(parsing bytes: some Collection<UInt8>) {
        // cJSON checks for "nothing after the document" by finding the terminating NUL inside
        // the length it is given, so the text goes in NUL-terminated.
        var text = Array(bytes)
        text.append(0)
        let root = text.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                cJSON_ParseWithLengthOpts(chars.baseAddress, chars.count, nil, 1)
            }
        }
        guard let root else { return nil }
        defer { cJSON_Delete(root) }
        self.init(root)
    }

    private init(_ item: UnsafeMutablePointer<cJSON>) {
        if cJSON_IsObject(item) != 0 {
            var members: [Member] = []
            var child = item.pointee.child
            while let node = child {
                members.append(Member(node.pointee.string.map { String(cString: $0) } ?? "", JSONValue(node)))
                child = node.pointee.next
            }
            self = .object(members)
        } else if cJSON_IsArray(item) != 0 {
            var elements: [JSONValue] = []
            var child = item.pointee.child
            while let node = child {
                elements.append(JSONValue(node))
                child = node.pointee.next
            }
            self = .array(elements)
        } else if cJSON_IsString(item) != 0 {
            self = .string(item.pointee.valuestring.map { String(cString: $0) } ?? "")
        } else if cJSON_IsNumber(item) != 0 {
            self = .number(item.pointee.valuedouble)
        } else if cJSON_IsBool(item) != 0 {
            self = .bool(cJSON_IsTrue(item) != 0)
        } else {
            self = .null
        }
    }

    /// The document as UTF-8 text; nil only when memory runs out. Non-finite numbers, which JSON
    /// cannot hold, print as `null` (the encoder refuses them before they get here).
    /// Wraps `cJSON_PrintUnformatted` and `cJSON_Print`.
    package func text(layout: JSON.Layout = .compact) -> [UInt8]? {
        guard let root = makeItem() else { return nil }
        defer { cJSON_Delete(root) }
        guard let printed = layout == .compact ? cJSON_PrintUnformatted(root) : cJSON_Print(root) else { return nil }
        defer { cJSON_free(printed) }
        return Array(String(cString: printed).utf8)
    }

    /// A new cJSON tree for this value, owned by the caller; nil when memory runs out.
    private func makeItem() -> UnsafeMutablePointer<cJSON>? {
        switch self {
        case .null: return cJSON_CreateNull()
        case .bool(let value): return cJSON_CreateBool(value ? 1 : 0)
        case .number(let value):
            // cJSON prints numbers with "%1.15g" and accepts that when it reads back within an
            // epsilon, which loses the last digits of integers past 10^15 and of some fractions.
            // Swift's own shortest exact form goes in raw instead; JSON cannot hold the rest.
            guard value.isFinite else { return cJSON_CreateNull() }
            if value == value.rounded(), abs(value) < 0x1p53 { return cJSON_CreateRaw(String(Int64(value))) }
            return cJSON_CreateRaw(value.description)
        case .string(let value): return cJSON_CreateString(value)
        case .array(let elements):
            guard let array = cJSON_CreateArray() else { return nil }
            for element in elements {
                guard let item = element.makeItem(), cJSON_AddItemToArray(array, item) != 0 else {
                    cJSON_Delete(array)
                    return nil
                }
            }
            return array
        case .object(let members):
            guard let object = cJSON_CreateObject() else { return nil }
            for member in members {
                guard let item = member.value.makeItem() else {
                    cJSON_Delete(object)
                    return nil
                }
                guard cJSON_AddItemToObject(object, member.key, item) != 0 else {
                    cJSON_Delete(item)
                    cJSON_Delete(object)
                    return nil
                }
            }
            return object
        }
    }
}
