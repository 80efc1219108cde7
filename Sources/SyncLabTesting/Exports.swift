@_exported import CloudKit
