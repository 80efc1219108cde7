// An engine file written for Apple platforms may import SwiftUI for its view model's
// `ObservableObject`; on Linux this module brings Combine's shims and Foundation.
@_exported import Combine
@_exported import Foundation
