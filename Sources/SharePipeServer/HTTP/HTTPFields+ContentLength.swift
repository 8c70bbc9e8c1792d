import HTTPTypes

extension HTTPFields {
    /// The body length a request declares in `Content-Length`, if it declares one that is a number.
    var declaredContentLength: Int? { self[.contentLength].flatMap { Int($0) } }
}
