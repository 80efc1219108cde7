import CloudSim
import Kernel
import SyncContract

/// Everything the world schedules on the kernel. Events addressed to a device carry the
/// incarnation they were meant for: a kill makes the older ones vanish when they come due.
indirect enum WorldEvent {
    /// A request reaches the cloud (it left the device when sent; a kill does not stop it).
    case requestArrives(device: Int, incarnation: Int, RequestID, CloudRequest, CloudClient)
    /// The cloud's answer reaches the device.
    case responseArrives(device: Int, incarnation: Int, RequestID, CloudResponse)
    /// A silent push reaches the device.
    case pushArrives(device: Int)
    /// An engine timer fires, or the engine resumes after a probe point.
    case engine(device: Int, incarnation: Int, EngineEvent)
}
