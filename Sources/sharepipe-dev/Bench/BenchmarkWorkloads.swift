import Foundation
import LinkPreviewCore

/// The workloads `sharepipe-dev bench` measures.
enum BenchmarkWorkloads {
    /// Bytes per read, as a fetcher receives them.
    static let chunkSize = 16 * 1024

    /// (a) Extraction as the fetcher uses it: 16 KiB chunks, stopping as soon as the extractor is complete.
    static func extractStreaming(_ page: CorpusPages.Page) -> LinkMetadata {
        var extractor = streamUntilComplete(page)
        return extractor.finish()
    }

    /// Feeds `page` in ``chunkSize`` chunks until the extractor is complete, as a fetcher would.
    static func streamUntilComplete(_ page: CorpusPages.Page) -> MetadataExtractor {
        var extractor = MetadataExtractor(url: page.url)
        page.bytes.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count && !extractor.isComplete {
                let end = min(offset + chunkSize, bytes.count)
                extractor.consume(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]))
                offset = end
            }
        }
        return extractor
    }

    /// Extraction of whole documents (no early stop).
    static func extractWhole(_ page: CorpusPages.Page) -> LinkMetadata {
        MetadataExtractor.extract(from: page.bytes, url: page.url, configuration: .init(stopsEarly: false))
    }

    /// (b) Tokenizing whole documents: charset decoding and every token, nothing extracted.
    static func tokenizeWhole(_ page: CorpusPages.Page) -> Int {
        var decoder = HTMLInputDecoder()
        var tokenizer = HTMLTokenizer()
        var sink = HTMLTokenStatistics()
        page.bytes.withUnsafeBytes { bytes in
            decoder.feed(bytes) { tokenizer.feed($0, into: &sink) }
            decoder.finish { tokenizer.feed($0, into: &sink) }
        }
        tokenizer.finish(into: &sink)
        return sink.tokens
    }

    /// (c) Peak memory while streaming a synthetic document of `megabytes` MB through the extractor:
    /// a head, then corpus body text repeated, generated chunk by chunk (never held whole).
    static func streamLargeDocument(megabytes: Int, filler: [UInt8]) -> (bytes: Int, metadata: LinkMetadata) {
        var limits = ExtractionLimits()
        limits.maxInputBytes = .max
        limits.maxBodyBytes = .max
        limits.maxTags = .max
        var extractor = MetadataExtractor(
            url: URL(string: "https://example.com/large")!,
            configuration: .init(limits: limits, stopsEarly: false)
        )
        let head = Array("<!doctype html><html lang=en><head><title>Large</title></head><body>".utf8)
        extractor.consume(head)
        var sent = head.count
        let target = megabytes * 1_000_000
        while sent < target {
            filler.withUnsafeBytes { extractor.consume($0) }
            sent += filler.count
        }
        return (sent, extractor.finish())
    }
}
