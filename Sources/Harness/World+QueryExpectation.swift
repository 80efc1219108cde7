import CloudSim
import Scenario

extension World {
    /// `expect cloud ACCOUNT: query TYPE [where …] OP N`: the server's query over every zone of
    /// the account's private database, its records as stored (docs/FORMAT.md).
    func checkQuery(
        _ account: String, _ recordType: String, _ conditions: [QueryCondition],
        _ comparison: CountComparison, _ count: Int
    ) -> (passed: Bool, found: String) {
        var parts: [QueryPredicate] = []
        for condition in conditions {
            guard let value = queryValue(condition.value.literal) else {
                return (false, "'\(condition.field.value)' cannot be compared with "
                    + condition.value.description)
            }
            parts.append(.compare(
                key: condition.field.value, Self.queryComparison(condition.comparison.value),
                value))
        }
        let predicate: QueryPredicate = parts.isEmpty ? .all : parts.count == 1 ? parts[0]
            : .and(parts)
        let query = RecordQuery(recordType: recordType, zone: nil, predicate: predicate)
        let answer = cloud.recordsQueried(query, of: account)
        if let refusal = answer.refusal {
            return (false, "the server refuses the query: \(refusal)")
        }
        return (comparison.holds(answer.records.count, count), "\(answer.records.count)")
    }

    /// The value a literal compares as in a query; nil for what the validator refuses.
    private func queryValue(_ literal: ValueLiteral) -> CloudValue? {
        switch literal {
        case .string(let text): return .string(text)
        case .integer(let number): return .int(number)
        case .decimal(let text): return Double(text).map(CloudValue.double)
        case .label(let label): return labels.recordName(of: label).map { .reference($0) }
        case .hexData(let bytes): return .bytes(bytes)
        case .generatedBytes(let count):
            return .bytes(ValueConversion.generatedBytes(byteCount: count))
        case .generatedText(let count):
            return .string(ValueConversion.generatedText(byteCount: count))
        case .bool, .null: return nil
        }
    }

    private static func queryComparison(_ written: QueryOperator) -> QueryComparison {
        switch written {
        case .equal: return .equal
        case .less: return .less
        case .lessOrEqual: return .lessOrEqual
        case .greater: return .greater
        case .greaterOrEqual: return .greaterOrEqual
        }
    }
}
