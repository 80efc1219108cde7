import CloudSim

/// A label's record name in an object of its own (`ChaosRun.positionRecords`): held
/// unretained and read in place, it is handed to the device's observation at every draw
/// without a retain and a release, which a name copied out of a list costs.
final class RecordNameBox {
    let name: HashedRecordName

    init(_ name: HashedRecordName) {
        self.name = name
    }
}
