import SharePipeKit
import Testing

struct ShareFlowTests {
    static let persistences: [ShareFlow.Persistence] = [.persisted, .failed(reason: "the disk is full.")]
    static let uploads: [UploadOutcome?] = [
        nil, .uploaded(shareID: nil), .replayed(shareID: nil), .rejected(status: 422, message: "The note is too long."),
        .unauthorized(status: 401, message: "revoked"), .transient(reason: "offline", retryAfter: nil),
        .postponed(reason: "HTTP 429: 100 groups a day", retryAfter: .seconds(60)),
    ]

    /// Every combination of the inputs: 2 × 4 × 7 × 4 = 224 situations.
    static var everySituation: [ShareFlow.Situation] {
        persistences.flatMap { persistence in
            CredentialState.Kind.allCases.flatMap { credential in
                uploads.flatMap { upload in
                    HostAbilities.allCases.map {
                        ShareFlow.Situation(persistence: persistence, credential: credential, upload: upload, host: $0)
                    }
                }
            }
        }
    }

    static func messages(_ actions: [ShareFlowAction]) -> [String] {
        actions.compactMap {
            switch $0 {
            case .show(let text), .openApp(fallback: let text): text
            default: nil
            }
        }
    }

    @Test("Every situation ends with exactly one thing said to the user, and never 'saved' when it was not")
    func everyOutcomeTellsTheTruth() {
        #expect(Self.everySituation.count == 224)
        for situation in Self.everySituation {
            guard case .conclude(let actions) = ShareFlow.decide(situation) else {
                #expect(
                    situation.persistence == .persisted && situation.credential == .valid && situation.upload == nil
                )
                continue
            }
            let said = Self.messages(actions)
            #expect(said.count == 1, "\(situation)")
            let acknowledged = situation.upload?.isAcknowledged == true && situation.credential == .valid
            if case .failed = situation.persistence {
                #expect(actions == [.show("Not saved: the disk is full.")], "\(situation)")
            } else if acknowledged {
                #expect(said == [ShareFlow.Message.sent], "\(situation)")
            } else if case .postponed(let reason, _) = situation.upload, situation.credential == .valid {
                // Opening SharePipe would not send it: the reason it waits, instead.
                #expect(said == [ShareFlow.Message.savedWaiting(reason)], "\(situation)")
            } else {
                #expect(said.allSatisfy { $0.hasPrefix("Saved") && $0.contains("SharePipe") }, "\(situation)")
            }
        }
    }

    @Test("Upload is attempted only for a persisted share with a valid credential, and only once")
    func uploadOnlyWhenItCanWork() {
        for situation in Self.everySituation {
            let uploads = ShareFlow.decide(situation) == .uploadNow
            #expect(
                uploads
                    == (situation.persistence == .persisted && situation.credential == .valid
                        && situation.upload == nil)
            )
        }
    }

    @Test("The item leaves the inbox only when the server acknowledged it")
    func removedOnlyWhenAcknowledged() {
        for situation in Self.everySituation {
            guard case .conclude(let actions) = ShareFlow.decide(situation) else { continue }
            let removed = actions.contains(.removeFromInbox)
            #expect(
                removed
                    == (situation.credential == .valid && situation.upload?.isAcknowledged == true
                        && situation.persistence == .persisted),
                "\(situation)"
            )
        }
    }

    @Test("Notifications only when allowed, opening the app only where possible and always with a prompt")
    func respectsHostAbilities() {
        for situation in Self.everySituation {
            guard case .conclude(let actions) = ShareFlow.decide(situation) else { continue }
            for action in actions {
                switch action {
                case .postNotification: #expect(situation.host.notificationsAllowed, "\(situation)")
                case .openApp(let fallback):
                    #expect(situation.host.canOpenApp, "\(situation)")
                    #expect(!fallback.isEmpty)
                default: break
                }
            }
        }
    }

    @Test("A refused token marks the account; a rejected share keeps the server's message; no retry for it")
    func serverAnswersBecomeActions() {
        for situation in Self.everySituation where situation.persistence == .persisted && situation.credential == .valid
        {
            guard case .conclude(let actions) = ShareFlow.decide(situation) else { continue }
            #expect(actions.contains(.markNeedsSignIn) == (situation.upload?.kind == .unauthorized), "\(situation)")
            #expect(actions.contains(.retryLater) == (situation.upload?.retryLater != nil), "\(situation)")
            #expect(actions.contains(.keepRejected("The note is too long.")) == (situation.upload?.kind == .rejected))
        }
    }

    @Test("Without a usable credential the outcome of an upload is irrelevant: none was made")
    func credentialDecidesFirst() {
        for situation in Self.everySituation where situation.credential != .valid {
            var withoutUpload = situation
            withoutUpload.upload = nil
            #expect(ShareFlow.decide(situation) == ShareFlow.decide(withoutUpload))
        }
    }

    @Test(
        "The documented table's rows",
        arguments: [
            // iOS 18 share extension, never signed in, notifications off: tell and keep.
            (
                CredentialState.Kind.missing, nil as UploadOutcome?,
                HostAbilities(notificationsAllowed: false, canOpenApp: false),
                [ShareFlowAction.show(ShareFlow.Message.savedSignIn)]
            ),
            // Stale marker (reinstalled app): the token is not used; a notification reminds.
            (
                .staleMarker, nil, HostAbilities(notificationsAllowed: true, canOpenApp: false),
                [.show(ShareFlow.Message.savedSignIn), .postNotification(ShareFlow.Message.signInNotification)]
            ),
            // macOS: the app can be opened to sign in, with the prompt as fallback.
            (
                .expired, nil, HostAbilities(notificationsAllowed: true, canOpenApp: true),
                [.openApp(fallback: ShareFlow.Message.savedSignIn)]
            ),
            (
                .valid, .transient(reason: "offline", retryAfter: nil),
                HostAbilities(notificationsAllowed: true, canOpenApp: true),
                [
                    .retryLater, .show(ShareFlow.Message.savedWillSend),
                    .postNotification(ShareFlow.Message.waitingNotification),
                ]
            ),
            // Postponed (attachments the server cannot take yet): the reason, and no reminder to open
            // an app that would not send it.
            (
                .valid, .postponed(reason: "It has 1 attachment.", retryAfter: nil),
                HostAbilities(notificationsAllowed: true, canOpenApp: true),
                [.retryLater, .show(ShareFlow.Message.savedWaiting("It has 1 attachment."))]
            ),
            (
                .valid, .unauthorized(status: 401, message: "revoked"),
                HostAbilities(notificationsAllowed: false, canOpenApp: false),
                [.keepUntilSignIn, .markNeedsSignIn, .show(ShareFlow.Message.savedSignIn)]
            ),
            (
                .valid, .replayed(shareID: nil), HostAbilities(notificationsAllowed: false, canOpenApp: false),
                [.removeFromInbox, .show(ShareFlow.Message.sent)]
            ),
        ]
    )
    func tableRows(
        credential: CredentialState.Kind,
        upload: UploadOutcome?,
        host: HostAbilities,
        expected: [ShareFlowAction]
    ) {
        let situation = ShareFlow.Situation(persistence: .persisted, credential: credential, upload: upload, host: host)
        #expect(ShareFlow.decide(situation) == .conclude(expected))
    }
}
