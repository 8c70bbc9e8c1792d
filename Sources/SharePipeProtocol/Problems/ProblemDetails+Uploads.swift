extension ProblemDetails.TypeURI {
    /// 409: a `PATCH` whose `Upload-Offset` is not the offset the server has.
    public static let uploadOffsetMismatch = base + "upload-offset-mismatch"
    /// 413: a file over the size limit.
    public static let fileTooLarge = base + "file-too-large"
    /// 413: a `PATCH` whose bytes go past the size the upload was announced with.
    public static let uploadPastSize = base + "upload-past-size"
    /// 413: the user's uploads would pass their quota.
    public static let quotaExceeded = base + "quota-exceeded"
    /// 422: the bytes received do not have the SHA-256 the upload was announced with.
    public static let uploadHashMismatch = base + "upload-hash-mismatch"
    /// 422: an image whose header declares more pixels than the server takes.
    public static let imageTooLarge = base + "image-too-large"
    /// 416: a `Range` that names no byte of the file.
    public static let rangeNotSatisfiable = base + "range-not-satisfiable"
}

extension ProblemDetails {
    /// 416: the `Range` asked for starts past the end of a file of `size` bytes (the answer's
    /// `Content-Range: bytes */size` says it too).
    public static func rangeNotSatisfiable(size: Int64) -> ProblemDetails {
        ProblemDetails(
            type: TypeURI.rangeNotSatisfiable,
            title: "The range is not in the file",
            status: 416,
            detail: "The file has \(size) bytes; ask for a range that starts before \(size), or for the whole file."
        )
    }

    /// 409: the `PATCH` started at `sent`, but the server has `stored` bytes; send from `stored`
    /// (the answer's `Upload-Offset` says it too).
    public static func uploadOffsetMismatch(sent: Int64, stored: Int64) -> ProblemDetails {
        ProblemDetails(
            type: TypeURI.uploadOffsetMismatch,
            title: "The upload is at another offset",
            status: 409,
            detail: "The server has \(stored) bytes of this upload, and the request sent bytes from \(sent). "
                + "Send the bytes from \(stored) (HEAD the upload to ask again)."
        )
    }

    /// 413: one file of `size` bytes, over the limit of `limit`.
    public static func fileTooLarge(size: Int64, limit: Int64) -> ProblemDetails {
        ProblemDetails(
            type: TypeURI.fileTooLarge,
            title: "The file is too large",
            status: 413,
            detail: "The file has \(size) bytes; this server takes files of at most \(limit) bytes."
        )
    }

    /// 413: bytes from `offset` that go past the announced `size`; none of them was stored.
    public static func uploadPastSize(size: Int64, offset: Int64) -> ProblemDetails {
        ProblemDetails(
            type: TypeURI.uploadPastSize,
            title: "The bytes go past the announced size",
            status: 413,
            detail: "The upload was announced with \(size) bytes; from \(offset), send at most \(size - offset)."
        )
    }

    /// 413: `size` more bytes would take the user past their quota of `quota` (`used` in use).
    public static func quotaExceeded(size: Int64, used: Int64, quota: Int64) -> ProblemDetails {
        ProblemDetails(
            type: TypeURI.quotaExceeded,
            title: "The uploads would pass your quota",
            status: 413,
            detail: "Your uploads take \(used) of your \(quota) bytes, and this file has \(size). "
                + "Remove shares with files you no longer need, or ask the server's administrator for more."
        )
    }

    /// 422: the bytes received hash to something else than announced; nothing was kept.
    public static var uploadHashMismatch: ProblemDetails {
        ProblemDetails(
            type: TypeURI.uploadHashMismatch,
            title: "The bytes do not match their SHA-256",
            status: 422,
            detail: "Every byte arrived, but their SHA-256 is not the one the upload was announced with, so "
                + "nothing was kept. Hash the file again and upload it from the start."
        )
    }

    /// 422: an image whose header says `width` × `height`, over the limit; nothing was decoded or kept.
    public static func imageTooLarge(width: Int, height: Int, maxSide: Int, maxPixels: Int) -> ProblemDetails {
        ProblemDetails(
            type: TypeURI.imageTooLarge,
            title: "The image is too large",
            status: 422,
            detail: "The image says it is \(width) × \(height) pixels; this server takes images of at most "
                + "\(maxSide) pixels a side and \(maxPixels / 1_000_000) megapixels. Nothing was kept."
        )
    }
}
