/// `Encodable` values written into a `JSONValue`. Keys come out sorted, so output is
/// deterministic; nil optionals are left out (as `JSONEncoder` does); non-finite numbers,
/// which JSON cannot hold, are refused with `EncodingError.invalidValue`.
struct JSONValueEncoder: Encoder, SingleValueEncodingContainer {
    /// Where this encoder writes: a slot in its parent's tree.
    let slot: Slot
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// Encodes `value` into a fresh tree.
    static func encode(_ value: some Encodable) throws -> JSONValue {
        let root = Slot()
        try value.encode(to: JSONValueEncoder(slot: root, codingPath: []))
        return root.value
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedContainer<Key>(slot: slot, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        UnkeyedContainer(slot: slot, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    // MARK: Single value

    func encodeNil() { slot.content = .value(.null) }
    func encode(_ value: Bool) { slot.content = .value(.bool(value)) }
    func encode(_ value: String) { slot.content = .value(.string(value)) }
    func encode(_ value: Double) throws { try number(value, value) }
    func encode(_ value: Float) throws { try number(Double(value), value) }
    func encode(_ value: Int) throws { try number(Double(value), value) }
    func encode(_ value: Int8) throws { try number(Double(value), value) }
    func encode(_ value: Int16) throws { try number(Double(value), value) }
    func encode(_ value: Int32) throws { try number(Double(value), value) }
    func encode(_ value: Int64) throws { try number(Double(value), value) }
    func encode(_ value: UInt) throws { try number(Double(value), value) }
    func encode(_ value: UInt8) throws { try number(Double(value), value) }
    func encode(_ value: UInt16) throws { try number(Double(value), value) }
    func encode(_ value: UInt32) throws { try number(Double(value), value) }
    func encode(_ value: UInt64) throws { try number(Double(value), value) }
    func encode<T: Encodable>(_ value: T) throws { try value.encode(to: self) }

    private func number(_ number: Double, _ original: Any) throws {
        guard number.isFinite else {
            throw EncodingError.invalidValue(original, EncodingError.Context(
                codingPath: codingPath, debugDescription: "JSON has no \(number)"))
        }
        slot.content = .value(.number(number))
    }
}

extension JSONValueEncoder {
    /// One place in the tree being built. Containers are values that must write into their parent,
    /// so the tree is made of these references; `value` turns it into a `JSONValue`.
    final class Slot {
        enum Content {
            case empty
            case value(JSONValue)
            case object([String: Slot])
            case array([Slot])
        }

        var content = Content.empty

        var value: JSONValue {
            switch content {
            // A value that encoded nothing at all, as `JSONEncoder` writes it.
            case .empty: .object([])
            case .value(let value): value
            case .object(let members):
                .object(members.sorted { $0.key < $1.key }.map { JSONValue.Member($0.key, $0.value.value) })
            case .array(let elements): .array(elements.map(\.value))
            }
        }

        /// The member `key`, made an object first if this slot is not one yet.
        func member(_ key: String) -> Slot {
            var members: [String: Slot] = [:]
            if case .object(let existing) = content {
                if let slot = existing[key] { return slot }
                members = existing
            }
            // Let go of the old reference first, so the dictionary grows in place, not by copying.
            content = .empty
            let slot = Slot()
            members[key] = slot
            content = .object(members)
            return slot
        }

        /// Makes this slot an object if it is not one yet (an encoded type with no members is `{}`).
        func makeObject() {
            if case .object = content { return }
            content = .object([:])
        }

        /// A new element at the end, made an array first if this slot is not one yet.
        func append() -> Slot {
            var elements: [Slot] = []
            if case .array(let existing) = content { elements = existing }
            // Let go of the old reference first, so the array grows in place, not by copying.
            content = .empty
            let slot = Slot()
            elements.append(slot)
            content = .array(elements)
            return slot
        }

        /// Makes this slot an array if it is not one yet (an empty array is `[]`).
        func makeArray() {
            if case .array = content { return }
            content = .array([])
        }

        var count: Int {
            if case .array(let elements) = content { return elements.count }
            return 0
        }
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let slot: JSONValueEncoder.Slot
    let codingPath: [any CodingKey]

    init(slot: JSONValueEncoder.Slot, codingPath: [any CodingKey]) {
        slot.makeObject()
        self.slot = slot
        self.codingPath = codingPath
    }

    mutating func encodeNil(forKey key: Key) { child(key).encodeNil() }
    mutating func encode(_ value: Bool, forKey key: Key) { child(key).encode(value) }
    mutating func encode(_ value: String, forKey key: Key) { child(key).encode(value) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try child(key).encode(value) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try child(key).encode(value) }
    mutating func encode(_ value: Int, forKey key: Key) throws { try child(key).encode(value) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try child(key).encode(value) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try child(key).encode(value) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try child(key).encode(value) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try child(key).encode(value) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try child(key).encode(value) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try child(key).encode(value) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try child(key).encode(value) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try child(key).encode(value) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try child(key).encode(value) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try child(key).encode(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        child(key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        child(key).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        JSONValueEncoder(slot: slot.member("super"), codingPath: codingPath + [SuperKey()])
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder { child(key) }

    private func child(_ key: Key) -> JSONValueEncoder {
        JSONValueEncoder(slot: slot.member(key.stringValue), codingPath: codingPath + [key])
    }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let slot: JSONValueEncoder.Slot
    let codingPath: [any CodingKey]

    init(slot: JSONValueEncoder.Slot, codingPath: [any CodingKey]) {
        slot.makeArray()
        self.slot = slot
        self.codingPath = codingPath
    }

    var count: Int { slot.count }

    mutating func encodeNil() { next().encodeNil() }
    mutating func encode(_ value: Bool) { next().encode(value) }
    mutating func encode(_ value: String) { next().encode(value) }
    mutating func encode(_ value: Double) throws { try next().encode(value) }
    mutating func encode(_ value: Float) throws { try next().encode(value) }
    mutating func encode(_ value: Int) throws { try next().encode(value) }
    mutating func encode(_ value: Int8) throws { try next().encode(value) }
    mutating func encode(_ value: Int16) throws { try next().encode(value) }
    mutating func encode(_ value: Int32) throws { try next().encode(value) }
    mutating func encode(_ value: Int64) throws { try next().encode(value) }
    mutating func encode(_ value: UInt) throws { try next().encode(value) }
    mutating func encode(_ value: UInt8) throws { try next().encode(value) }
    mutating func encode(_ value: UInt16) throws { try next().encode(value) }
    mutating func encode(_ value: UInt32) throws { try next().encode(value) }
    mutating func encode(_ value: UInt64) throws { try next().encode(value) }
    mutating func encode<T: Encodable>(_ value: T) throws { try next().encode(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        next().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { next().unkeyedContainer() }

    mutating func superEncoder() -> any Encoder { next() }

    /// An encoder for a new element at the end; its path names the element's index.
    private func next() -> JSONValueEncoder {
        let index = slot.count
        return JSONValueEncoder(slot: slot.append(), codingPath: codingPath + [IndexKey(intValue: index)])
    }
}
