extension Array where Element == MetadataStripping.Piece {
    /// The pieces that make bytes `range` of what these pieces make: what a range request for a
    /// stripped file is sent, without reading the bytes before it.
    func slice(_ range: Range<Int64>) -> [MetadataStripping.Piece] {
        var sliced: [MetadataStripping.Piece] = []
        var start: Int64 = 0  // where the current piece begins in the output
        for piece in self {
            let end = start + piece.count
            defer { start = end }
            let from = Swift.max(range.lowerBound, start)
            let to = Swift.min(range.upperBound, end)
            guard from < to else { continue }
            switch piece {
            case .copy(let source):
                let shift: Int64 = source.lowerBound - start
                let lower: Int64 = from + shift
                let upper: Int64 = to + shift
                sliced.append(.copy(lower..<upper))
            case .bytes(let bytes):
                let lower = Int(from - start)
                let upper = Int(to - start)
                sliced.append(.bytes([UInt8](bytes[lower..<upper])))
            }
        }
        return sliced
    }
}
