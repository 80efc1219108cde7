import Checkers
import Device

extension World {
    /// What the checkers read of the world as it is now (`WorldSnapshot`): each device's
    /// state, observation and store are read once, here.
    func snapshot() -> WorldSnapshot {
        let states = devices.indices.map { index in
            let device = devices[index]
            return WorldSnapshot.DeviceState(
                name: device.name, account: device.account, isOnline: device.isOnline,
                isRunning: device.isRunning, observation: device.observation,
                store: device.store, recordingView: device.recordingView,
                firedRules: firedRules[index])
        }
        return WorldSnapshot(
            devices: states, cloud: cloud, schema: schema, catalogue: profile.catalogue,
            codec: codec, cloudFiredRules: firedRules[devices.count])
    }
}
