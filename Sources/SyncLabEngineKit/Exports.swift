// An engine author imports this one module: the contract, the simulated cloud's value types
// (record IDs, zones, records with system fields and change tags, save policies, errors),
// the local store, the kernel's time, and CKSyncEngine's shape (docs/BRING-YOUR-OWN-ENGINE.md).
@_exported import CloudSim
@_exported import Kernel
@_exported import LocalStore
@_exported import SyncContract
@_exported import struct CKSyncEngineSim.RecordID
