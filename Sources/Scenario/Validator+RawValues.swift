/// The values of `expect cloud ACCOUNT: LABEL raw FIELD=VALUE …`: fields are the engine's,
/// so only what no stored value can be is an error.
extension Validator {
    mutating func checkRawValues(_ values: [Assignment], state: TimelineState) {
        reportDuplicates(values.map(\.key), kind: "key")
        for assignment in values {
            switch assignment.value.literal {
            case .bool(let flag):
                report(.rawBool(flag ? "true" : "false", field: assignment.key.value),
                    at: assignment.value.location)
            case .label(let name):
                _ = requireLabel(Located(name, at: assignment.value.location), state: state)
            default:
                break
            }
        }
    }
}
