import LocalStore
@testable import SyncLabTesting
import Testing

/// The checkers find a record's model on a device through the app adapter's name table.
@Suite struct ScenarioAppObservationTests {
    /// The app wipes its notes (a zone's deletion) and downloads them again: the adapter keeps
    /// the deleted model's name and gives the downloaded one a new model of the same name; the
    /// record is the live model's, else the device seems to lack it and to hold one iCloud lacks.
    @Test func aRecordNamesTheModelTheAppBroughtBack() {
        var data = ScenarioAppData()
        data.names[ModelID(3)] = "record-a"
        data.names[ModelID(4)] = "record-b"
        data.names[ModelID(7)] = "record-a"
        let observation = ScenarioAppObservation(data: data)
        #expect(observation.model(forRecord: "record-a") == ModelID(7))
        #expect(observation.model(forRecord: "record-b") == ModelID(4))
        #expect(observation.model(forRecord: "record-c") == nil)
        #expect(observation.recordName(of: ModelID(3)) == "record-a")
    }
}
