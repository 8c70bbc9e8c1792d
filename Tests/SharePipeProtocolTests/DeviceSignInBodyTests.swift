import Foundation
import SharePipeProtocol
import Testing

/// `POST /v1/devices`: the app writes a ``DeviceLogin`` and reads a ``DeviceCreated``; the server reads
/// and writes the same two types.
struct DeviceSignInBodyTests {
    static let device = Device(
        id: UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!,
        userID: UUID(uuidString: "2C6A9F5E-3B8E-4B43-9C59-0C7A9C1D2E11")!,
        name: "Ada's iPhone",
        createdAt: Date(timeIntervalSince1970: 1_700_000_000)
    )

    @Test("The sign-in body has the members the API names, and reads back as sent")
    func loginRoundTrips() throws {
        let login = DeviceLogin(handle: "@Ada", password: "correct horse", name: "Ada's iPhone")
        let body = try APIJSON.encoder().encode(login)
        #expect(
            String(decoding: body, as: UTF8.self)
                == #"{"handle":"@Ada","name":"Ada's iPhone","password":"correct horse"}"#
        )
        #expect(try JSONDecoder().decode(DeviceLogin.self, from: body) == login)
    }

    @Test("The answer is written as the API's DeviceCreated and read back whole")
    func createdRoundTrips() throws {
        let created = DeviceCreated(device: Self.device, appToken: "spa_app", shareToken: "sps_share")
        let body = try APIJSON.encoder().encode(created)
        #expect(
            String(decoding: body, as: UTF8.self)
                == #"{"appToken":"spa_app","device":{"createdAt":"2023-11-14T22:13:20Z","#
                + #""id":"6F9619FF-8B86-D011-B42D-00C04FC964FF","name":"Ada's iPhone","#
                + #""userID":"2C6A9F5E-3B8E-4B43-9C59-0C7A9C1D2E11"},"shareToken":"sps_share"}"#
        )
        #expect(try APIJSON.decoder().decode(DeviceCreated.self, from: body) == created)
        var revoked = created
        revoked.device.revokedAt = Date(timeIntervalSince1970: 1_700_000_600)
        #expect(try APIJSON.decoder().decode(DeviceCreated.self, from: APIJSON.encoder().encode(revoked)) == revoked)
    }

    @Test("An answer without its tokens is no DeviceCreated")
    func incompleteAnswerIsRefused() throws {
        let body = #"{"device":{"id":"6F9619FF-8B86-D011-B42D-00C04FC964FF"},"appToken":"spa_app"}"#
        #expect(throws: DecodingError.self) { try APIJSON.decoder().decode(DeviceCreated.self, from: Data(body.utf8)) }
    }
}
