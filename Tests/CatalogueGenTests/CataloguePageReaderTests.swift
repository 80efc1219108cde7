import CatalogueGen
import Testing

/// The generator reads a catalogue page as a person does, and names every line that looks
/// like a catalogue line but breaks its shape.
@Suite struct CataloguePageReaderTests {
    @Test func rulesTheirNestedLinesAndTheGroupsOfTheirSections() {
        let reader = CataloguePageReader(text: """
            # A page
            - **Rules** an intro bullet, before any group.
            ## SYNC — how a synchronization runs
            Prose of the section.
            - **SYNC-1** First.
              - Source: for the reader only.
              - Choice: one.
              - Choice: two.
              - Exempts: lost-change, resurrection.
            - **SYNC-2** Second.
            ## Identity record names, exactly
            - **ID-1** Outside a group: not read.
            ## OBX-DR — discovered races
            - **OBX-DR-1** A race.
              - Explains: convergence, lost-change (a reason, with (brackets)).
              - Workaround: 'settle' first
            """)
        #expect(reader.problems.isEmpty, "\(reader.problems)")
        #expect(reader.groups.map(\.group) == ["SYNC", "OBX-DR"])
        #expect(reader.groups.map(\.title) == ["how a synchronization runs", "discovered races"])
        #expect(reader.entries.map(\.id) == ["SYNC-1", "SYNC-2", "OBX-DR-1"])
        let first = reader.entries[0]
        #expect(first.text == "First." && first.group == "SYNC" && first.line == 5)
        #expect(first.choices == ["one.", "two."])
        #expect(first.exempts == ["lost-change", "resurrection"] && first.explains.isEmpty)
        let race = reader.entries[2]
        #expect(race.group == "OBX-DR")
        #expect(race.explains == ["convergence", "lost-change"])
        #expect(race.workaround == "'settle' first")
    }

    @Test func anExtraSectionHoldsRulesOfTheGroupTheirIDNamesAndAddsNoGroup() {
        let reader = CataloguePageReader(text: """
            ## NAIVE — what the engine does
            - **NAIVE-1** One.
            ## NAIVE-D — the literal code
            - **NAIVE-15** Fifteen.
              - Explains: convergence.
            """, extraSections: ["NAIVE-D"])
        #expect(reader.problems.isEmpty, "\(reader.problems)")
        #expect(reader.groups.map(\.group) == ["NAIVE"])
        #expect(reader.entries.map(\.group) == ["NAIVE", "NAIVE"])
        #expect(reader.entries.map(\.section) == ["NAIVE", "NAIVE-D"])
        #expect(reader.entries[1].explains == ["convergence"])
    }

    @Test func malformedLinesAreReportedNotSkipped() {
        let reader = CataloguePageReader(text: """
            ## SYNC — how a synchronization runs
            - **SYNC-1** First.
              - Choice: one.
            - **SYNC 2** Broken.
              - Choice: stray.
            - **DL-1** Of another group.
            - **SYNC-1** Twice.
              - Because: no such label.
              - Explains: Lost Change.
            - **SYNC-3** Wrapped
            onto a second line.
            """)
        #expect(reader.entries.map(\.id) == ["SYNC-1", "SYNC-1", "SYNC-3"])
        #expect(reader.problems == [
            "line 4: 'SYNC 2' is not an ID (GROUP-N)",
            "line 5: a nested line below no rule",
            "line 6: 'DL-1' is not an ID of group SYNC",
            "line 8: 'Because' is no label of a rule",
            "line 9: 'Lost Change' is not an invariant's name",
            "line 11: text right below a rule; keep a rule and each of its nested lines on one "
                + "line, and prose after a blank line",
            "line 7: SYNC-1 appears twice",
        ], "\(reader.problems)")
    }
}
