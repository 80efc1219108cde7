extension Parser {
    /// `query TYPE [where FIELD OP VALUE …] returns [OP] N` after `expect cloud ACCOUNT:`,
    /// `query` already read and an identifier next. A label called `query` keeps its meaning:
    /// `query key=value …` is that label's expectation.
    mutating func parseQueryExpectation(
        account: Located<String>, keyword: Token
    ) -> ExpectationKind? {
        let scope = ExpectationScope.cloud(account: account)
        let label = Located(keyword.text, at: keyword.location)
        let type = Located(current.text, at: current.location)
        advance()
        if current.kind == .equals {
            advance()
            guard let first = parseValue(), let rest = parseAssignments() else { return nil }
            let values = [Assignment(key: type, value: first)] + rest
            return .values(scope, label: label, values: values)
        }
        guard let conditions = parseQueryConditions() else { return nil }
        guard current.isKeyword("returns") else {
            let what = conditions.isEmpty ? "'where' or 'returns'" : "'returns'"
            report(.expected(what, found: current), at: current.location)
            return nil
        }
        advance()
        var comparison = CountComparison.equal
        if let written = CountComparison(token: current) {
            comparison = written
            advance()
        }
        let location = current.location
        return parseCount("a count", minimum: comparison.minimumCount).map {
            .query(
                account: account, recordType: type, conditions: conditions,
                comparison: comparison, count: Located($0, at: location))
        }
    }

    /// `where FIELD OP VALUE …` (at least one), or nothing.
    private mutating func parseQueryConditions() -> [QueryCondition]? {
        guard current.isKeyword("where") else { return [] }
        advance()
        var conditions: [QueryCondition] = []
        while current.kind == .identifier, !current.isKeyword("returns"),
            let comparison = QueryOperator(token: peek())
        {
            let field = Located(current.text, at: current.location)
            advance()
            let operatorLocation = current.location
            advance()
            guard let value = parseValue() else { return nil }
            conditions.append(QueryCondition(
                field: field, comparison: Located(comparison, at: operatorLocation),
                value: value))
        }
        guard !conditions.isEmpty else {
            report(.expected("a condition such as 'title=\"B\"' or 'rank>=2'", found: current),
                at: current.location)
            return nil
        }
        return conditions
    }
}
