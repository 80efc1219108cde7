import CloudKit
import Foundation
import SyncLabTesting
import Testing

/// A `CKQuerySubscription` with an `NSPredicate(format:)`: the server evaluates it on each
/// changed record, so only matching records push; a predicate CloudKit does not support fails
/// the save with `invalidArguments` naming the part (docs/CLOUDSIM.md *Subscriptions*).
@Suite(.serialized) struct PredicateSubscriptionTests {
    static let container = SubscriptionTests.container
    static let zoneID = SubscriptionTests.zoneID

    static func save(_ name: String, priority: Int, on device: SimulatedDevice) throws {
        try device.run {
            let note = CKRecord(recordType: "Note",
                recordID: CKRecord.ID(recordName: name, zoneID: Self.zoneID))
            note["priority"] = priority
            try await Self.container.privateCloudDatabase.save(note)
        }
    }

    @Test func aComparisonFiresForMatchingRecordsOnly() throws {
        let world = try SubscriptionTests().makeWorld()
        let (phone, laptop) = (world.device("phone"), world.device("laptop"))
        try SubscriptionTests.makeZone(on: phone)
        let log = SubscriptionTests.Log()
        try phone.run {
            let subscription = CKQuerySubscription(
                recordType: "Note", predicate: NSPredicate(format: "priority > %d", 3),
                subscriptionID: "urgent", options: [.firesOnRecordCreation])
            try await Self.container.privateCloudDatabase.save(subscription)
            SubscriptionTests.register(into: log)
        }
        try Self.save("n1", priority: 1, on: laptop)
        try world.settle()
        #expect(log.lines == [])
        try Self.save("n2", priority: 5, on: laptop)
        try world.settle()
        #expect(log.lines == ["query urgent 1 2 true"])
    }

    @Test func unsupportedPredicatesFailTheSaveNamingThePart() throws {
        let world = try SubscriptionTests().makeWorld()
        let phone = world.device("phone")
        try SubscriptionTests.makeZone(on: phone)
        let messages = try phone.run { () -> [String] in
            var messages: [String] = []
            for format in ["title ENDSWITH 'x'", "rank > 1 OR rank < 0", "title = 'x"] {
                let subscription = CKQuerySubscription(
                    recordType: "Note", predicate: NSPredicate(format: format),
                    subscriptionID: "s")
                do {
                    try await Self.container.privateCloudDatabase.save(subscription)
                } catch let error as CKError where error.code == .invalidArguments {
                    messages.append(error.localizedDescription)
                }
            }
            return messages
        }
        #expect(messages == [
            #"Subscription 's' refused: Unsupported predicate "title ENDSWITH 'x'": ENDSWITH "#
                + "at character 7 is not supported in CloudKit queries",
            #"Subscription 's' refused: Unsupported predicate "rank > 1 OR rank < 0": OR at "#
                + "character 10 is not supported in CloudKit queries",
            #"Subscription 's' refused: Malformed predicate "title = 'x": unbalanced quote ' "#
                + "at character 9",
        ])
    }

    /// `IN` and `FALSEPREDICATE` are evaluated by the server: the one never fires, the other
    /// for the listed values only.
    @Test func inAndFalsePredicateAreEvaluatedByTheServer() throws {
        let world = try SubscriptionTests().makeWorld()
        let (phone, laptop) = (world.device("phone"), world.device("laptop"))
        try SubscriptionTests.makeZone(on: phone)
        let log = SubscriptionTests.Log()
        try phone.run {
            let predicate = NSCompoundPredicate(andPredicateWithSubpredicates: [
                NSPredicate(format: "priority IN %@", argumentArray: [[2, 3]]),
                NSPredicate(format: "FALSEPREDICATE"),
            ])
            try await Self.container.privateCloudDatabase.save(CKQuerySubscription(
                recordType: "Note", predicate: predicate, subscriptionID: "never",
                options: [.firesOnRecordCreation]))
            SubscriptionTests.register(into: log)
        }
        try Self.save("n1", priority: 3, on: laptop)
        try world.settle()
        #expect(log.lines == [])
        try phone.run {
            let some = CKQuerySubscription(
                recordType: "Note", predicate: NSPredicate(format: "priority IN { 2, 3 }"),
                subscriptionID: "some", options: [.firesOnRecordCreation])
            _ = try await Self.container.privateCloudDatabase.modifySubscriptions(
                saving: [some], deleting: ["never"])
        }
        try Self.save("n2", priority: 1, on: laptop)
        try world.settle()
        #expect(log.lines == [])
        try Self.save("n3", priority: 2, on: laptop)
        try world.settle()
        #expect(log.lines == ["query some 1 2 true"])
    }

    /// Fetched by another device, the subscription's predicate judges records as the saved
    /// one did and can be saved again.
    @Test func aFetchedSubscriptionKeepsItsPredicate() throws {
        let world = try SubscriptionTests().makeWorld()
        let (phone, laptop) = (world.device("phone"), world.device("laptop"))
        try SubscriptionTests.makeZone(on: phone)
        try phone.run {
            try await Self.container.privateCloudDatabase.save(CKQuerySubscription(
                recordType: "Note", predicate: NSPredicate(format: "title BEGINSWITH 'G'"),
                subscriptionID: "g-notes"))
        }
        let (matches, saved) = try laptop.run { () -> ([Bool], Bool) in
            let database = Self.container.privateCloudDatabase
            guard let fetched = try await database.subscription(for: "g-notes")
                as? CKQuerySubscription else { return ([], false) }
            let matches = ["Garden", "Books"].map { title in
                let note = CKRecord(recordType: "Note")
                note["title"] = title
                return fetched.predicate.evaluate(with: note)
            }
            try await database.save(fetched)
            return (matches, true)
        }
        #expect(matches == [true, false])
        #expect(saved)
    }
}
