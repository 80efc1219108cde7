import CloudSim
import Kernel
import Testing

/// docs/CLOUDSIM.md *Schema* and SCHEMA-2: development creates types and fields on first save (fields
/// only when saved with a value) and fixes their types; production rejects what it lacks.
@Suite struct SchemaTests {
    func schema(_ types: [CloudSnapshot.RecordType]) -> [String: [String: String]] {
        var result: [String: [String: String]] = [:]
        for type in types {
            result[type.name] = Dictionary(
                uniqueKeysWithValues: type.fields.map { ($0.key, $0.type) })
        }
        return result
    }

    @Test func developmentCreatesTypesAndFieldsSavedWithAValue() {
        let fixture = CloudFixture()
        let record = fixture.note(
            "n1", ["title": .string("x"), "count": .int(1), "tags": .list([.string("a")])])
        fixture.modify(saves: [
            RecordSave(record: record, changedKeys: ["title", "count", "tags", "body"])
        ])
        fixture.insert(fixture.note("f1", type: "Folder"))
        let snapshot = fixture.cloud.snapshot()
        #expect(
            schema(snapshot.developmentSchema) == [
                "Folder": [:],
                "Note": ["count": "INT64", "tags": "LIST<STRING>", "title": "STRING"],
            ])
        #expect(snapshot.productionSchema.isEmpty)
    }

    @Test func developmentRejectsAValueOfAnotherTypeThanTheFirstSave() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("n1", ["count": .int(1)]))
        let results = fixture.insert(fixture.note("n2", ["count": .string("one")]))
        #expect(
            results.first?.error
                == CloudError(
                    .invalidArguments,
                    message: "invalid attempt to set value type STRING for field 'count' "
                        + "for type 'Note', defined to be: INT64"))
        // The same key on another type is another field.
        #expect(
            fixture.insert(fixture.note("f1", ["count": .string("one")], type: "Folder")).map(
                \.code) == [nil])
    }

    @Test func anEmptyListFitsAnyListAndFixesNoType() {
        let fixture = CloudFixture()
        #expect(fixture.insert(fixture.note("n1", ["tags": .list([])])).map(\.code) == [nil])
        #expect(fixture.insert(fixture.note("n2", ["tags": .list([.int(3)])])).map(\.code) == [nil])
        #expect(fixture.insert(fixture.note("n3", ["tags": .list([])])).map(\.code) == [nil])
        #expect(
            fixture.insert(fixture.note("n4", ["tags": .string("x")])).map(\.code) == [
                .invalidArguments
            ])
    }

    @Test func aListMixingTypesIsInvalid() {
        let fixture = CloudFixture()
        let results = fixture.insert(fixture.note("n1", ["tags": .list([.string("a"), .int(1)])]))
        #expect(
            results.first?.error
                == CloudError(
                    .invalidArguments, message: "List values of field 'tags' differ in type"))
    }

    @Test func productionRejectsAnUnknownTypeWithTheServersMessage() {
        let fixture = CloudFixture(environment: .production)
        let results = fixture.insert(fixture.note("n1", ["title": .string("x")]))
        #expect(
            results.first?.error
                == CloudError(
                    .invalidArguments, message: "Cannot create new type Note in production schema"))
        #expect(fixture.cloud.records(in: fixture.zone).isEmpty)
    }

    @Test func productionRejectsAnUnknownFieldWithTheServersMessage() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("n1", ["title": .string("x")]))
        fixture.cloud.deploySchema()
        fixture.cloud.setEnvironment(.production)
        let results = fixture.insert(fixture.note("n2", ["title": .string("y"), "order": .int(2)]))
        #expect(
            results.first?.error
                == CloudError(
                    .invalidArguments,
                    message: "Cannot create or modify field 'order' in record 'Note' "
                        + "in production schema"))
        #expect(fixture.insert(fixture.note("n3", ["title": .string("z")])).map(\.code) == [nil])
        // Clearing a field is not creating it.
        let clearing = RecordSave(
            record: fixture.note("n4", ["title": .string("w")]), changedKeys: ["title", "order"])
        #expect(fixture.modify(saves: [clearing]).response.items.map(\.code) == [nil])
    }

    @Test func productionRejectsAFieldOfAnotherTypeAsAModification() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("n1", ["title": .string("x")]))
        fixture.cloud.deploySchema()
        fixture.cloud.setEnvironment(.production)
        let results = fixture.insert(fixture.note("n2", ["title": .int(1)]))
        #expect(
            results.first?.error?.message
                == "Cannot create or modify field 'title' in record 'Note' in production schema")
    }

    @Test func productionSavesDoNotChangeEitherSchema() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("n1", ["title": .string("x")]))
        fixture.cloud.deploySchema()
        fixture.cloud.setEnvironment(.production)
        let before = fixture.cloud.snapshot()
        fixture.insert(fixture.note("n2", ["title": .string("y"), "order": .int(1)]))
        let after = fixture.cloud.snapshot()
        #expect(after.developmentSchema == before.developmentSchema)
        #expect(after.productionSchema == before.productionSchema)
    }

    @Test func deployingIsAdditiveAndBackInDevelopmentNewFieldsAppear() {
        let fixture = CloudFixture(environment: .production)
        fixture.cloud.setEnvironment(.development)
        fixture.insert(fixture.note("n1", ["title": .string("x")]))
        fixture.cloud.deploySchema()
        fixture.insert(fixture.note("n2", ["order": .int(1)]), fixture.note("f1", type: "Folder"))
        #expect(schema(fixture.cloud.snapshot().productionSchema) == ["Note": ["title": "STRING"]])
        fixture.cloud.deploySchema()
        #expect(
            schema(fixture.cloud.snapshot().productionSchema)
                == ["Folder": [:], "Note": ["order": "INT64", "title": "STRING"]])
        fixture.cloud.setEnvironment(.production)
        #expect(fixture.cloud.configuration.environment == .production)
        #expect(fixture.insert(fixture.note("n3", ["order": .int(2)])).map(\.code) == [nil])
    }

    @Test func aFailedSaveInDevelopmentCreatesNothing() {
        let fixture = CloudFixture()
        fixture.cloud.setQuotaFull(account: "alice", true)
        fixture.insert(fixture.note("n1", ["title": .string("x")]))
        #expect(fixture.cloud.snapshot().developmentSchema.isEmpty)
    }

    static let invalidNames: [(CloudRecord, String)] = {
        let zone = ZoneID(owner: "alice", name: "App")
        return [
            (
                CloudRecord(recordType: "Note", recordName: "", zone: zone),
                "Invalid record name '': empty"
            ),
            (
                CloudRecord(recordType: "Note", recordName: "_reserved", zone: zone),
                "Invalid record name '_reserved': names starting with '_' are reserved"
            ),
            (
                CloudRecord(recordType: "Note", recordName: "caf\u{E9}", zone: zone),
                "Invalid record name 'caf\u{E9}': not ASCII"
            ),
            (
                CloudRecord(recordType: "1Note", recordName: "n1", zone: zone),
                "Invalid record type '1Note'"
            ),
            (
                CloudRecord(
                    recordType: "Note", recordName: "n1", zone: zone, fields: ["_key": .int(1)]),
                "Invalid field key '_key'"
            ),
            (
                CloudRecord(
                    recordType: "Note", recordName: "n1", zone: zone, fields: ["has space": .int(1)]
                ),
                "Invalid field key 'has space'"
            ),
        ]
    }()

    @Test(arguments: invalidNames)
    func namesFollowCloudKitsRules(_ record: CloudRecord, _ message: String) {
        let fixture = CloudFixture()
        let results = fixture.modify(saves: [newSave(record)]).response.items
        #expect(results.first?.error == CloudError(.invalidArguments, message: message))
    }

    @Test func identityStyleRecordNamesAreValid() {
        let fixture = CloudFixture()
        let name = "Subscription." + String(repeating: "ab", count: 32)
        #expect(
            fixture.insert(fixture.note(name, ["feedLink": .string("x")], type: "Subscription"))
                .map(\.code) == [nil])
    }
}
