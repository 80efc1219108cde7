import Scenario
import Testing

/// The zone-fault additions of issue 13 (docs/FORMAT.md, *Cloud actions*): `delete-zone` /
/// `user-delete-zone ACCOUNT collection LABEL | zone NAME`, `reset-encrypted-data ACCOUNT
/// [collection LABEL | zone NAME]`, `throttle ACCOUNT next-upload N deletes retry-after D`;
/// the plain statements keep their meaning.
@Suite struct ZoneFaultStatementTests {
    static func action(_ line: String) throws -> CloudAction {
        let statement = try TimelineTreeTests.statement(line)
        guard case .cloudAction(let cloud) = statement.kind else {
            Issue.record("not a cloud action: \(line)")
            throw CancellationError()
        }
        return cloud.action
    }

    @Test func thePlainZoneFaultsKeepTheirCases() throws {
        guard case .deleteZone(let account) = try Self.action("cloud: delete-zone alice") else {
            Issue.record("delete-zone alice changed meaning"); return
        }
        #expect(account.value == "alice")
        guard case .userDeleteZone = try Self.action("cloud: user-delete-zone alice") else {
            Issue.record("user-delete-zone alice changed meaning"); return
        }
    }

    @Test func aZoneFaultCanNameACollectionOrAZone() throws {
        let collection = try Self.action("cloud: delete-zone alice collection f1")
        guard case .zoneFault(.deleteZone, let account, let zone) = collection else {
            Issue.record("not a zone fault"); return
        }
        #expect(account.value == "alice")
        #expect(zone?.value == .collection(label: "f1"))
        #expect(zone?.location.column == 37)
        let named = try Self.action("cloud: user-delete-zone alice zone com.apple.coredata.cloudkit.zone")
        guard case .zoneFault(.userDeleteZone, _, let namedZone) = named else {
            Issue.record("not a zone fault"); return
        }
        #expect(namedZone?.value == .zone(name: "com.apple.coredata.cloudkit.zone"))
        let quoted = try Self.action("cloud: delete-zone alice zone \"Collection-f1\"")
        guard case .zoneFault(_, _, let quotedZone) = quoted else { Issue.record("not a zone fault"); return }
        #expect(quotedZone?.value == .zone(name: "Collection-f1"))
    }

    @Test func resetEncryptedDataActsOnEveryZoneOrOne() throws {
        guard case .zoneFault(.resetEncryptedData, let account, let zone) =
            try Self.action("cloud: reset-encrypted-data alice")
        else { Issue.record("not reset-encrypted-data"); return }
        #expect(account.value == "alice" && zone == nil)
        guard case .zoneFault(.resetEncryptedData, _, let one) =
            try Self.action("cloud: reset-encrypted-data alice zone Notes")
        else { Issue.record("not reset-encrypted-data"); return }
        #expect(one?.value == .zone(name: "Notes"))
    }

    @Test func theNextUploadsDeletesCanBeThrottled() throws {
        guard case .throttleNextDeletes(let account, let deletes, let retryAfter) =
            try Self.action("cloud: throttle alice next-upload 2 deletes retry-after 10s")
        else { Issue.record("not a delete throttle"); return }
        #expect(account.value == "alice" && deletes.value == 2)
        #expect(retryAfter.value == TimeSpan(microseconds: 10_000_000))
        guard case .throttleNextUpload = try Self.action(
            "cloud: throttle alice next-upload 2 records retry-after 10s")
        else { Issue.record("records changed meaning"); return }
    }

    @Test func aZoneCanBeBusyForAWhile() throws {
        guard case .zoneBusy(let account, let duration) = try Self.action("cloud: zone-busy alice for 10s")
        else { Issue.record("not zone-busy"); return }
        #expect(account.value == "alice")
        #expect(duration.value == TimeSpan(microseconds: 10_000_000))
    }

    static let setup = header + """
        entity Note {
          title: String = ""
        }
        account alice
        device phone on alice
        phone: insert Note n1

        """

    @Test func badZoneFaultsAreReportedWhereTheyAre() {
        assertDiagnostics(Self.setup + "cloud: delete-zone alice 1️⃣colection n1\n", [
            .init("1️⃣", "expected 'collection', 'zone' or end of line, found 'colection'; did you "
                + "mean 'collection'?", id: "expected"),
        ])
        assertDiagnostics(Self.setup + "cloud: reset-encrypted-data 1️⃣alise\n", [
            .init("1️⃣", "unknown account 'alise'; did you mean 'alice'?", id: "unknown-account"),
        ])
        assertDiagnostics(Self.setup + "cloud: delete-zone alice collection 1️⃣n2\n", [
            .init("1️⃣", "label 'n2' is not bound by an earlier 'insert'; did you mean 'n1'?",
                id: "unknown-label"),
        ])
        assertDiagnostics(Self.setup + "cloud: user-delete-zone alice zone 1️⃣_defaultZone\n", [
            .init("1️⃣", "zone '_defaultZone' cannot be named here: the default zone cannot be "
                + "deleted", id: "invalid-zone-name"),
        ])
        assertDiagnostics(Self.setup + "cloud: delete-zone alice zone 1️⃣\"_x\"\n", [
            .init("1️⃣", "zone '_x' cannot be named here: names starting with '_' are reserved",
                id: "invalid-zone-name"),
        ])
        assertDiagnostics(Self.setup + "cloud: delete-zone alice zone 1️⃣5\n", [
            .init("1️⃣", "expected a zone name, found '5'", id: "expected"),
        ])
        assertDiagnostics(Self.setup + "cloud: throttle alice next-upload 2 1️⃣delete retry-after 1s\n", [
            .init("1️⃣", "expected 'records' or 'deletes', found 'delete'; did you mean 'deletes'?",
                id: "expected"),
        ])
    }
}
