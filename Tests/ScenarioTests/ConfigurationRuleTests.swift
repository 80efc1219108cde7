import Scenario
import Testing

/// The configuration rules of RULES.md that make a schema an input error (CFG-2, ID-6), and
/// the relationship rules around them.
@Suite struct ConfigurationRuleTests {
    @Test func unsynchronizedPropertyMustBeOptionalOrDefaulted() {
        assertDiagnostics(
            header + """
            entity Note {
              title: String = ""
              1️⃣lastOpened: Date
              2️⃣views: Int
              seen: Bool = false
              note: String?
              folder: Folder?
              sync only(title)
            }
            entity Folder {
              name: String
              sync none
            }
            """,
            [
                .init("1️⃣", "property 'lastOpened' is not synchronized, so it must be optional or "
                    + "have a default value (CFG-2)", id: "unsynchronized-required-property"),
                .init("2️⃣", "property 'views' is not synchronized, so it must be optional or "
                    + "have a default value (CFG-2)"),
            ])
    }

    @Test func syncListsNameRealPropertiesOnce() {
        assertDiagnostics(
            header + """
            entity Note {
              title: String = ""
              body: String?
              sync except(body, 1️⃣bdy, 2️⃣body)
            }
            """,
            [
                .init("1️⃣", "entity 'Note' has no property 'bdy'; did you mean 'body'?"),
                .init("2️⃣", "duplicate sync list entry 'body'", id: "duplicate-sync-list-entry"),
            ])
    }

    @Test func identityNamesSynchronizedNonAssetAttributes() {
        assertDiagnostics(
            header + """
            entity Feed {
              link: String = ""
              cover: Data? asset
              local: String?
              folder: Folder?
              sync except(local)
              identity(link, 1️⃣cover, 2️⃣local, 3️⃣folder, 4️⃣lnk, 5️⃣link)
            }
            entity Folder {
              name: String = ""
            }
            """,
            [
                .init("1️⃣", "identity attribute 'cover' cannot be an asset property (ID-6)",
                    id: "identity-asset"),
                .init("2️⃣", "identity attribute 'local' must be synchronized",
                    id: "identity-not-synchronized"),
                .init("3️⃣", "identity 'folder' is a relationship; an identity names attributes",
                    id: "identity-not-attribute"),
                .init("4️⃣", "entity 'Feed' has no property 'lnk'; did you mean 'link'?"),
                .init("5️⃣", "duplicate identity attribute 'link'"),
            ])
    }

    @Test func identityEntityCannotBeSharable() {
        assertDiagnostics(
            header + """
            entity Feed {
              link: String = ""
              identity(1️⃣link)
              sharable
            }
            """,
            [
                .init("1️⃣", "entity 'Feed' has an identity, so it cannot be 'sharable' (ID-6)",
                    id: "identity-sharable"),
            ])
    }

    @Test func identityEntityCannotBeBelowASharableEntity() {
        assertDiagnostics(
            header + """
            entity Folder {
              name: String = ""
              sharable
            }
            entity Section {
              folder: Folder? parent
            }
            entity Item {
              key: String = ""
              section: Section? parent
              identity(1️⃣key)
            }
            """,
            [
                .init("1️⃣", "entity 'Item' has an identity, so it cannot be below sharable entity "
                    + "'Folder' (ID-6)", id: "identity-below-sharable"),
            ])
    }

    @Test func identityEntityCannotBeAParent() {
        assertDiagnostics(
            header + """
            entity Feed {
              link: String = ""
              identity(1️⃣link)
            }
            entity Item {
              feed: Feed? parent
              other: Feed?
            }
            """,
            [
                .init("1️⃣", "entity 'Feed' has an identity, so it cannot be the parent of "
                    + "'Item.feed' (ID-6)", id: "identity-parent"),
            ])
    }

    @Test func parentCyclesTerminate() {
        assertDiagnostics(
            header + """
            entity A {
              b: B? parent
            }
            entity B {
              key: String = ""
              a: A? parent
              identity(1️⃣key)
            }
            """,
            [
                .init("1️⃣", "entity 'B' has an identity, so it cannot be the parent of 'A.b' "
                    + "(ID-6)"),
            ])
    }

    @Test func inversesPointBackThroughToOneRelationships() {
        assertDiagnostics(
            header + """
            entity Folder {
              notes: [Note] inverse(folder)
              bad: [Note] inverse(1️⃣foldr)
              pinned: [Note] inverse(2️⃣tags)
              archived: [Note] inverse(3️⃣other)
              more: [Note] inverse(4️⃣folder)
            }
            entity Note {
              folder: Folder?
              tags: [Folder]
              other: Note?
            }
            """,
            [
                .init("1️⃣", "entity 'Note' has no relationship 'foldr' to be the inverse; "
                    + "did you mean 'folder'?", id: "unknown-inverse"),
                .init("2️⃣", "inverse 'tags' must be a to-one relationship of 'Note' to 'Folder'",
                    id: "invalid-inverse"),
                .init("3️⃣", "inverse 'other' must be a to-one relationship of 'Note' to 'Folder'"),
                .init("4️⃣", "'folder' is already the inverse of 'notes'", id: "duplicate-inverse"),
            ])
    }

    @Test func inversesDeclaredOnBothSidesAgree() {
        assertDiagnostics(
            header + """
            entity Person {
              spouse: Person? inverse(spouse)
              boss: Person? inverse(1️⃣mentor)
              mentor: Person? inverse(2️⃣spouse)
            }
            """,
            [
                .init("1️⃣", "'boss' names 'mentor' as its inverse, but 'mentor' names 'spouse'",
                    id: "inverse-mismatch"),
                .init("2️⃣", "'mentor' names 'spouse' as its inverse, but 'spouse' names 'spouse'"),
            ])
    }

    @Test func aRecordHasOneParent() {
        assertDiagnostics(
            header + """
            entity Folder {
            }
            entity Note {
              folder: Folder? parent
              1️⃣shelf: Folder? parent
            }
            """,
            [
                .init("1️⃣", "entity 'Note' has a second 'parent' relationship; a record has one "
                    + "parent", id: "multiple-parents"),
            ])
    }

    @Test func entityCannotTakeAnAttributeTypeName() {
        assertDiagnostics(
            header + "entity 1️⃣String {\n}\n",
            [
                .init("1️⃣", "'String' is a keyword and cannot be an entity name",
                    id: "reserved-name"),
            ])
    }

    @Test func resolvedSchemaTree() throws {
        let result = ScenarioChecker.check(source: try Fixtures.text("every-statement"), file: "x")
        let note = try #require(result.scenario.entity(named: "Note"))
        let folder = try #require(note.relationship(named: "folder"))
        #expect(folder.cardinality == .toOne && folder.isParent && folder.deleteRule == .nullify)
        #expect(note.parentRelationship?.name.value == "folder")
        #expect(note.attribute(named: "photo")?.isAsset == true)
        #expect(note.attribute(named: "body")?.isOptional == true)
        #expect(note.attribute(named: "title")?.defaultValue?.literal == .string(""))
        #expect(!note.isSynchronized(property: "lastOpened"))
        #expect(note.isSynchronized(property: "title"))
        let folderEntity = try #require(result.scenario.entity(named: "Folder"))
        let notes = try #require(folderEntity.relationship(named: "notes"))
        #expect(notes.cardinality == .toMany && notes.deleteRule == .cascade)
        #expect(notes.inverse?.value == "folder")
        #expect(result.scenario.entity(named: "Folder")?.isSharable == true)
        let subscription = try #require(result.scenario.entity(named: "Subscription"))
        #expect(subscription.identity.map(\.value) == ["feedLink", "guid"])
        #expect(result.scenario.entity(named: "Draft")?.isSynchronized == false)
        #expect(result.scenario.entity(named: "Tag")?.isSynchronized(property: "color") == false)
    }
}

/// Spellings the format accepts beside the contract's own.
@Suite struct SchemaSpellingTests {
    @Test func optionalToManyMeansToMany() throws {
        let source = header + """
            entity Folder { notes: [Note]? inverse(folder) }
            entity Note {
              sync: Bool = false
              identity: String?
              folder: Folder?
            }
            entity Empty {}
            """
        let result = ScenarioChecker.check(source: source, file: "t")
        #expect(result.diagnostics.map(\.rendered) == [])
        let folder = try #require(result.scenario.entity(named: "Folder"))
        #expect(folder.relationship(named: "notes")?.cardinality == .toMany)
        #expect(result.scenario.entity(named: "Note")?.attributes.map(\.name.value)
            == ["sync", "identity"])
        #expect(result.scenario.entity(named: "Empty")?.propertyNames == [])
    }
}
