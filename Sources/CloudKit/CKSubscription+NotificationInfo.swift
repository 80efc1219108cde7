import CloudSim
import Foundation

extension CKSubscription {
    /// Apple's `CKSubscription.NotificationInfo`: what a subscription's pushes would show.
    /// Saved with the subscription and fetched back, but SyncLab's pushes are silent: an
    /// alert, a badge or a sound is never shown, and a push reaches the handler the app
    /// registered whether or not `shouldSendContentAvailable` is set.
    open class NotificationInfo: NSObject, @unchecked Sendable {
        // `@unchecked`: used on its device's thread only.
        public var alertBody: String?
        public var alertLocalizationKey: String?
        public var alertLocalizationArgs: [CKRecord.FieldKey]?
        public var title: String?
        public var titleLocalizationKey: String?
        public var titleLocalizationArgs: [CKRecord.FieldKey]?
        public var subtitle: String?
        public var subtitleLocalizationKey: String?
        public var subtitleLocalizationArgs: [CKRecord.FieldKey]?
        public var alertActionLocalizationKey: String?
        public var alertLaunchImage: String?
        public var soundName: String?
        public var desiredKeys: [CKRecord.FieldKey]?
        public var shouldBadge = false
        public var shouldSendContentAvailable = false
        public var shouldSendMutableContent = false
        public var category: String?
        public var collapseIDKey: String?

        public override init() {}

        /// Apple's initializer of every property, each with its default.
        public convenience init(
            alertBody: String? = nil, alertLocalizationKey: String? = nil,
            alertLocalizationArgs: [CKRecord.FieldKey]? = nil, title: String? = nil,
            titleLocalizationKey: String? = nil, titleLocalizationArgs: [CKRecord.FieldKey]? = nil,
            subtitle: String? = nil, subtitleLocalizationKey: String? = nil,
            subtitleLocalizationArgs: [CKRecord.FieldKey]? = nil,
            alertActionLocalizationKey: String? = nil, alertLaunchImage: String? = nil,
            soundName: String? = nil, desiredKeys: [CKRecord.FieldKey]? = nil,
            shouldBadge: Bool = false, shouldSendContentAvailable: Bool = false,
            shouldSendMutableContent: Bool = false, category: String? = nil,
            collapseIDKey: String? = nil
        ) {
            self.init()
            self.alertBody = alertBody
            self.alertLocalizationKey = alertLocalizationKey
            self.alertLocalizationArgs = alertLocalizationArgs
            self.title = title
            self.titleLocalizationKey = titleLocalizationKey
            self.titleLocalizationArgs = titleLocalizationArgs
            self.subtitle = subtitle
            self.subtitleLocalizationKey = subtitleLocalizationKey
            self.subtitleLocalizationArgs = subtitleLocalizationArgs
            self.alertActionLocalizationKey = alertActionLocalizationKey
            self.alertLaunchImage = alertLaunchImage
            self.soundName = soundName
            self.desiredKeys = desiredKeys
            self.shouldBadge = shouldBadge
            self.shouldSendContentAvailable = shouldSendContentAvailable
            self.shouldSendMutableContent = shouldSendMutableContent
            self.category = category
            self.collapseIDKey = collapseIDKey
        }
    }
}
