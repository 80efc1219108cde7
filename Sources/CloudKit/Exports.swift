// `import CloudKit` on Apple platforms brings Foundation (and through it Combine's
// `ObservableObject`); the simulated module does the same, so an engine file compiles as written.
@_exported import Combine
@_exported import Foundation
