import Testing

@testable import LinkPreview

struct PageReadSizingTests {
    let sizing = PageReadSizing(base: 4 << 10)

    @Test("Through the first 64 KiB every read is the base size")
    func headIsReadInSmallSteps() {
        for received in [0, 1, 4 << 10, 40 << 10, (64 << 10) - 1] {
            #expect(sizing.size(afterReceiving: received) == 4 << 10)
        }
    }

    @Test("Past 64 KiB reads grow to an eighth of what arrived, in powers of two, up to 64 KiB")
    func longPagesAreReadInGrowingSteps() {
        #expect(sizing.size(afterReceiving: 64 << 10) == 8 << 10)
        #expect(sizing.size(afterReceiving: 100 << 10) == 8 << 10)
        #expect(sizing.size(afterReceiving: 128 << 10) == 16 << 10)
        #expect(sizing.size(afterReceiving: 300 << 10) == 32 << 10)
        #expect(sizing.size(afterReceiving: 512 << 10) == 64 << 10)
        #expect(sizing.size(afterReceiving: 50 << 20) == 64 << 10)
    }

    @Test("A read never overshoots what arrived before it by more than an eighth, nor exceeds 64 KiB")
    func overshootIsBounded() {
        for received in stride(from: 64 << 10, through: 4 << 20, by: 3_333) {
            let size = sizing.size(afterReceiving: received)
            #expect(size * 8 <= received && size <= 64 << 10 && size >= 4 << 10)
        }
    }
}
