import HTTPTypes
import Hummingbird
import SharePipeProtocol

/// A JSON response from an already encoded body.
func jsonResponse(encoded body: String, status: HTTPResponse.Status = .ok, headers extra: HTTPFields = [:]) -> Response
{
    var headers = extra
    headers[.contentType] = "application/json"
    return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
}

/// A JSON response of `value` in the API's JSON form.
func jsonResponse(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
    jsonResponse(encoded: try APIJSON.encode(value), status: status)
}
