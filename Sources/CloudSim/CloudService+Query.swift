/// Queries of the private database ([CKQueryOperation], [CKQuery]; docs/CLOUDSIM.md
/// *Queries*): matching records in zone order, then record-name order, or in the order of the
/// query's sort keys, paged by cursor.
extension CloudService {
    /// The page size when a query names none (`CKQueryOperation.maximumResults`).
    public static let queryPageSize = 100

    /// `.queryRecords`: one page of the query's matches after the cursor, with a cursor when
    /// more follow. The shared database and predicates outside the subset → `invalidArguments`;
    /// a named zone that is not live → its missing error.
    func queryRecords(
        scope: DatabaseScope, query: RecordQuery, resultsLimit: Int, cursor: QueryCursor?,
        account: String
    ) -> CloudOutcome {
        guard scope == .privateDatabase else {
            return CloudOutcome(response: .failure(CloudMessages.queryScope))
        }
        if let part = query.predicate.unsupportedPart {
            return CloudOutcome(response: .failure(CloudMessages.unsupportedPredicate(part)))
        }
        let zones: [ZoneID]
        if let zone = query.zone {
            guard liveZoneState(zone) != nil else {
                return CloudOutcome(response: .failure(missingZoneError(zone)))
            }
            zones = [zone]
        } else {
            zones = self.zones(of: account)
        }
        let limit = resultsLimit > 0 ? resultsLimit : Self.queryPageSize
        if !query.sortedBy.isEmpty {
            return sortedQueryPage(query, zones: zones, limit: limit, after: cursor)
        }
        var page: [CloudRecord] = []
        for zone in zones { // tidy: ordered (sorted zones)
            if let cursor, zone < cursor.lastZone { continue }
            for record in records(in: zone) where record.recordType == query.recordType {
                if let cursor, zone == cursor.lastZone, record.recordName <= cursor.lastRecordName {
                    continue
                }
                guard query.predicate.matches(record) else { continue }
                if page.count == limit {
                    let last = page[page.count - 1]
                    let next = QueryCursor(
                        query: query, lastZone: last.zone, lastRecordName: last.recordName)
                    return CloudOutcome(response: .recordsQueried(page, cursor: next))
                }
                page.append(record)
            }
        }
        return CloudOutcome(response: .recordsQueried(page, cursor: nil))
    }
}

extension CloudService {
    /// One page of a sorted query: every match, ordered by the sort keys, then zone, then
    /// record name; the page starts after the cursor's position in that order.
    private func sortedQueryPage(
        _ query: RecordQuery, zones: [ZoneID], limit: Int, after cursor: QueryCursor?
    ) -> CloudOutcome {
        let sorts = query.sortedBy
        let start = cursor.map(QueryPosition.init)
        var matches: [(position: QueryPosition, record: CloudRecord)] = []
        for zone in zones { // tidy: ordered (sorted zones)
            for record in records(in: zone) where record.recordType == query.recordType {
                guard query.predicate.matches(record) else { continue }
                let position = QueryPosition(record, sorts: sorts)
                if let start, !start.precedes(position, sorts: sorts) { continue }
                matches.append((position, record))
            }
        }
        matches.sort { $0.position.precedes($1.position, sorts: sorts) }
        guard matches.count > limit else {
            return CloudOutcome(response: .recordsQueried(matches.map(\.record), cursor: nil))
        }
        let last = matches[limit - 1].position
        let next = QueryCursor(
            query: query, lastZone: last.zone, lastRecordName: last.recordName,
            lastValues: last.values)
        let page = matches.prefix(limit).map(\.record)
        return CloudOutcome(response: .recordsQueried(page, cursor: next))
    }
}

extension CloudService {
    /// Every record a query of `account`'s private database returns, its pages followed by
    /// cursor; or the error the server refuses it with. An inspection: no outage, throttle
    /// or note applies, so a scenario's expectation sees what the query would.
    public func recordsQueried(
        _ query: RecordQuery, of account: String
    ) -> (records: [CloudRecord], refusal: CloudError?) {
        var records: [CloudRecord] = []
        var cursor: QueryCursor?
        repeat {
            let outcome = queryRecords(
                scope: .privateDatabase, query: query, resultsLimit: 0, cursor: cursor,
                account: account)
            switch outcome.response {
            case .recordsQueried(let page, let next):
                records += page
                cursor = next
            case .failure(let error):
                return (records, error)
            default:
                preconditionFailure("a query answered \(outcome.response)")
            }
        } while cursor != nil
        return (records, nil)
    }
}

extension CloudMessages {
    static let queryScope = CloudError(
        .invalidArguments, message: "Queries are modelled on the private database only")

    static func unsupportedPredicate(_ part: String) -> CloudError {
        CloudError(.invalidArguments, message: "Unsupported query predicate: \(part)")
    }
}
