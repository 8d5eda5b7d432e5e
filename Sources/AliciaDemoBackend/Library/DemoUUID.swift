/// Version-4-shaped UUIDs for the demo's reply ids: a pure function of a seed (the message number),
/// so a test can predict them and a resend gets the same one.
enum DemoUUID {
    static func make(seed: Int) -> String {
        var bytes: [UInt8] = []
        for index in 0..<2 {
            let word = SplitMix64.mix(UInt64(bitPattern: Int64(seed)) &* 2 &+ UInt64(index))
            for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
        }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let hex = Array("0123456789abcdef")
        var text = ""
        for (index, byte) in bytes.enumerated() {
            if [4, 6, 8, 10].contains(index) { text.append("-") }
            text.append(hex[Int(byte >> 4)])
            text.append(hex[Int(byte & 0x0F)])
        }
        return text
    }
}
