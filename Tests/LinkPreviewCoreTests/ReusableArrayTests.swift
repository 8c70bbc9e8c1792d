import Testing

@testable import LinkPreviewCore

/// ``ReusableArray`` keeps stale elements past its count; none of them may ever be seen.
struct ReusableArrayTests {
    @Test func refillingAfterRemoveAllShowsOnlyTheNewElements() {
        var array = ReusableArray<UInt8>()
        Array("a long first filling".utf8).withUnsafeBufferPointer { array.append(contentsOf: $0) }
        array.removeAll()
        #expect(array.count == 0)
        Array("short".utf8).withUnsafeBufferPointer { array.append(contentsOf: $0) }
        #expect(Array(array.elements) == Array("short".utf8))
        #expect(array.elementsEqual(Array("short".utf8)))
        array.withUnsafeBufferPointer { #expect($0.count == 5) }
    }

    @Test func anAppendThatOutgrowsTheStaleElementsKeepsEveryByteInOrder() {
        var array = ReusableArray<UInt8>()
        Array("0123".utf8).withUnsafeBufferPointer { array.append(contentsOf: $0) }
        array.removeAll()
        array.append(UInt8(ascii: "x"))
        // Three bytes fit over stale ones, the rest grow the buffer.
        Array("abcdefgh".utf8).withUnsafeBufferPointer { array.append(contentsOf: $0) }
        #expect(Array(array.elements) == Array("xabcdefgh".utf8))
        #expect(Array(array[1..<4]) == Array("abc".utf8))
    }

    @Test func truncateForgetsTheTailAndChangesInPlaceStayWithinTheCount() {
        var array = ReusableArray<Int>()
        for element in 1...5 { array.append(element) }
        array.truncate(to: 2)
        array.append(9)
        #expect(Array(array.elements) == [1, 2, 9])
        array[0] = 7
        array.withUnsafeMutableBufferPointer { buffer in
            #expect(buffer.count == 3)
            buffer[1] = 8
        }
        #expect(Array(array.elements) == [7, 8, 9])
    }
}
