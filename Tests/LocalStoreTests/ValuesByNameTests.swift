import LocalStore
import Testing

/// An operation's values are checked and written in the order of their names, whether a few
/// (sorted on the stack) or many (sorted in an array): the first refusal names the first
/// offending property by name, and every value lands.
@Suite struct ValuesByNameTests {
    static let wide = Schema(entities: [
        EntityDescription(
            name: "Wide",
            attributes: (0..<24).map {
                AttributeDescription(name: name($0), type: .int, isOptional: true)
            })
    ])

    static func name(_ index: Int) -> String { index < 10 ? "a0\(index)" : "a\(index)" }

    /// The first `count` attributes, the later ones first in the map's literal (no order).
    static func values(_ count: Int) -> [String: PropertyValue] {
        Dictionary(uniqueKeysWithValues: (0..<count).reversed().map {
            (name($0), number(Int64($0)))
        })
    }

    @Test(arguments: [2, 16, 17, 24])
    func everyValueLands(count: Int) throws {
        var store = Store(schema: Self.wide)
        let id = try store.insert("Wide", Self.values(count))
        for index in 0..<count {
            #expect(store.model(id)?.value(of: Self.name(index)) == .int(Int64(index)))
        }
        try store.update(id, Self.values(count).mapValues { _ in number(-1) })
        #expect(store.model(id)?.value(of: Self.name(count - 1)) == .int(-1))
    }

    @Test(arguments: [2, 16, 17, 24])
    func theFirstUnknownNameIsReported(count: Int) throws {
        var store = Store(schema: Self.wide)
        let id = try store.insert("Wide")
        var values = Self.values(count - 1)
        values["zz9"] = number(1)
        values["zz0"] = number(1)
        #expect(throws: StoreError.unknownProperty(entity: "Wide", property: "zz0")) {
            try store.update(id, values)
        }
    }

    @Test(arguments: [2, 16, 17, 24])
    func theFirstInvalidValueIsReported(count: Int) throws {
        var store = Store(schema: Self.wide)
        let id = try store.insert("Wide")
        var values = Self.values(count)
        values[Self.name(count - 1)] = text("late")
        values[Self.name(1)] = text("early")
        do {
            try store.update(id, values)
            Issue.record("an invalid value was stored")
        } catch {
            guard case .invalidValue(_, let property, _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(property == Self.name(1))
        }
    }
}
