import Testing
@testable import AliciaAudio

@Suite struct ByteRingTests {
    private func bytes(_ values: ClosedRange<UInt8>) -> [UInt8] { Array(values) }

    private func read(_ ring: ByteRing, from offset: Int = 0, count: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        let n = out.withUnsafeMutableBytes { ring.copy(from: offset, into: $0) }
        return Array(out.prefix(n))
    }

    @Test func appendsUpToCapacity() {
        let ring = ByteRing(capacity: 8)
        #expect(bytes(1...10).withUnsafeBytes { ring.append($0) } == 8)
        #expect(ring.count == 8)
        #expect(ring.free == 0)
        #expect(read(ring, count: 10) == Array(1...8))
    }

    @Test func wrapsAroundTheEnd() {
        let ring = ByteRing(capacity: 8)
        _ = bytes(1...6).withUnsafeBytes { ring.append($0) }
        ring.removeFirst(4)
        _ = bytes(7...12).withUnsafeBytes { ring.append($0) }
        #expect(ring.count == 8)
        #expect(read(ring, count: 8) == Array(5...12))
        #expect(read(ring, from: 3, count: 3) == [8, 9, 10])
    }

    @Test(arguments: [1, 3, 7, 8])
    func fifoOrderSurvivesManyCycles(chunk: Int) {
        let ring = ByteRing(capacity: 8)
        var next: UInt8 = 0
        var expected: UInt8 = 0
        for _ in 0..<200 {
            let input = (0..<chunk).map { i in next &+ UInt8(i) }
            let taken = input.withUnsafeBytes { ring.append($0) }
            next &+= UInt8(taken)
            let out = read(ring, count: 5)
            ring.removeFirst(out.count)
            for byte in out {
                #expect(byte == expected)
                expected &+= 1
            }
        }
    }

    @Test func resizeKeepsContentInOrder() {
        let ring = ByteRing(capacity: 4)
        _ = bytes(1...3).withUnsafeBytes { ring.append($0) }
        ring.removeFirst(2)
        _ = bytes(4...6).withUnsafeBytes { ring.append($0) }
        ring.resize(to: 16)
        #expect(ring.capacity == 16)
        #expect(read(ring, count: 16) == [3, 4, 5, 6])
    }

    @Test func removeMoreThanHeldEmpties() {
        let ring = ByteRing(capacity: 4)
        _ = bytes(1...3).withUnsafeBytes { ring.append($0) }
        ring.removeFirst(10)
        #expect(ring.isEmpty)
        #expect(ring.free == 4)
    }
}
