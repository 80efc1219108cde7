import CloudSim
import Foundation

/// A `NotificationInfo` as the simulated cloud keeps it with its subscription (by Apple's
/// property names), and back, so a fetched subscription has the settings it was saved with.
extension CKSubscription.NotificationInfo {
    private typealias Info = CKSubscription.NotificationInfo

    private static var texts: [(String, ReferenceWritableKeyPath<Info, String?>)] { [
        ("alertBody", \.alertBody), ("alertLocalizationKey", \.alertLocalizationKey),
        ("title", \.title), ("titleLocalizationKey", \.titleLocalizationKey),
        ("subtitle", \.subtitle), ("subtitleLocalizationKey", \.subtitleLocalizationKey),
        ("alertActionLocalizationKey", \.alertActionLocalizationKey),
        ("alertLaunchImage", \.alertLaunchImage), ("soundName", \.soundName),
        ("category", \.category), ("collapseIDKey", \.collapseIDKey),
    ] }

    private static var lists: [(String, ReferenceWritableKeyPath<Info, [String]?>)] { [
        ("alertLocalizationArgs", \.alertLocalizationArgs),
        ("titleLocalizationArgs", \.titleLocalizationArgs),
        ("subtitleLocalizationArgs", \.subtitleLocalizationArgs),
        ("desiredKeys", \.desiredKeys),
    ] }

    private static var flags: [(String, ReferenceWritableKeyPath<Info, Bool>)] { [
        ("shouldBadge", \.shouldBadge),
        ("shouldSendContentAvailable", \.shouldSendContentAvailable),
        ("shouldSendMutableContent", \.shouldSendMutableContent),
    ] }

    /// The settings the cloud keeps: the properties that are set.
    var settings: NotificationSettings {
        var fields: [String: CloudValue] = [:]
        for (name, path) in Self.texts { // tidy: ordered (an array)
            if let text = self[keyPath: path] { fields[name] = .string(text) }
        }
        for (name, path) in Self.lists { // tidy: ordered (an array)
            if let list = self[keyPath: path] { fields[name] = .list(list.map(CloudValue.string)) }
        }
        for (name, path) in Self.flags where self[keyPath: path] { // tidy: ordered (an array)
            fields[name] = .int(1)
        }
        return NotificationSettings(fields: fields)
    }

    /// The info the cloud's settings describe.
    convenience init(settings: NotificationSettings) {
        self.init()
        for (name, path) in Self.texts { // tidy: ordered (an array)
            if case .string(let text) = settings.fields[name] { self[keyPath: path] = text }
        }
        for (name, path) in Self.lists { // tidy: ordered (an array)
            guard case .list(let values) = settings.fields[name] else { continue }
            self[keyPath: path] = values.compactMap {
                if case .string(let key) = $0 { key } else { nil }
            }
        }
        for (name, path) in Self.flags { // tidy: ordered (an array)
            self[keyPath: path] = settings.fields[name] == .int(1)
        }
    }
}
