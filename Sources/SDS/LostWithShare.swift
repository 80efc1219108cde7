import CloudSim

/// The copies of a share lost that held something of this device's: a change not uploaded
/// yet, a model it moved there whose old record is still in the app's zone (the move not
/// answered), or one whose move was uploaded.
struct LostWithShare {
    var changed: [String] = []
    var unmoved: [String] = []
    var moved: [String] = []

    mutating func note(_ name: String, appZone: ZoneID, context: SDSContext) {
        if !context.syncData.staleCopies.isEmpty, context.syncData.staleCopies[name] == appZone {
            unmoved.append(name)
        } else if !context.syncData.pendingDeletions[name].isNil {
            changed.append(name)
        } else if let id = context.syncData.model(forRecord: name) {
            if !context.syncData.pending[id].isNil {
                changed.append(name)
            } else if !context.syncData.uploadedMoves[name].isNil {
                moved.append(name)
            }
        }
    }
}
