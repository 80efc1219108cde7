extension Validator {
    /// A `query` expectation's conditions: values the server can compare. CloudKit has no Bool
    /// and matches no missing field, and only numbers and strings have an order.
    mutating func checkQueryConditions(_ conditions: [QueryCondition], state: TimelineState) {
        for condition in conditions {
            let field = condition.field.value
            let location = condition.value.location
            switch condition.value.literal {
            case .bool(let flag):
                report(.rawBool(flag ? "true" : "false", field: field), at: location)
            case .null:
                report(.queryNil(field: field), at: location)
            case .label(let name):
                _ = requireLabel(Located(name, at: location), state: state)
                if condition.comparison.value.orders {
                    report(.queryOrder(field: field, kind: "a reference"),
                        at: condition.comparison.location)
                }
            case .hexData, .generatedBytes:
                if condition.comparison.value.orders {
                    report(.queryOrder(field: field, kind: "bytes"),
                        at: condition.comparison.location)
                }
            case .string, .integer, .decimal, .generatedText:
                break
            }
        }
    }
}

extension DiagnosticMessage {
    /// `query Note where title=nil`: the server's query matches only fields a record has.
    static func queryNil(field: String) -> Self {
        Self(id: "type-mismatch",
            message: "a query cannot compare '\(field)' with nil: the server matches only "
                + "records that have the field")
    }

    /// `query Note where owner>n1`: references and bytes have no order on the server.
    static func queryOrder(field: String, kind: String) -> Self {
        Self(id: "type-mismatch",
            message: "a query cannot order '\(field)' by \(kind): only numbers and strings "
                + "have an order",
            suggestions: ["="])
    }
}
