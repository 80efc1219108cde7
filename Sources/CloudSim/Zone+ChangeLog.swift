/// One page of a zone's change feed.
struct ZoneFeedPage {
    var records: [CloudRecord]
    var deletions: [RecordDeletion]
    /// The sequence the next page resumes after.
    var resumeSequence: Int64
    var moreComing: Bool
}

/// Paging over a change log (sequence, name) kept in sequence order: shared by a zone's own
/// feed and by a participant's view of a shared zone.
enum ChangeLogPaging {
    /// What `report` makes of the reportable entries after `token`, oldest first, at most
    /// `limit` (`report` answers nil for an entry that is not reportable); the sequence the
    /// next page resumes after (the last returned entry's, or `finalSequence` when nothing
    /// is left), and whether anything is left.
    ///
    /// The item is what the page is built from (issue 19: the zone's feed looked each name
    /// up once to tell whether its entry was current, then again to build the page).
    static func page<Item>(
        _ log: [LogEntry], after token: Int64, limit: Int, finalSequence: Int64,
        report: (LogEntry) -> Item?
    ) -> (items: [Item], resumeSequence: Int64, moreComing: Bool) {
        precondition(limit > 0, "a page holds at least one item")
        precondition(token <= finalSequence, "a token from the future")
        var items: [Item] = []
        var lastSequence = finalSequence
        var index = firstIndex(in: log, after: token)
        // Room for the page at once (issue 19: the items grew their buffer a few times a
        // page): a page holds at most `limit` items, and at most one per entry left.
        items.reserveCapacity(Swift.min(limit, log.count - index))
        while index < log.count {
            let entry = log[index]
            index += 1
            guard let item = report(entry) else { continue }
            if items.count == limit { return (items, lastSequence, true) }
            items.append(item)
            lastSequence = entry.sequence
        }
        return (items, finalSequence, false)
    }

    /// Index of the first log entry with a sequence above `token` (binary search).
    private static func firstIndex(in log: [LogEntry], after token: Int64) -> Int {
        var low = 0
        var high = log.count
        while low < high {
            let middle = (low + high) / 2
            if log[middle].sequence <= token { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

extension ZoneState {
    /// The changes after `token`, oldest first, at most `limit` items (records and deletions).
    ///
    /// Each record changed since the token appears once, as its latest version (only the entry
    /// carrying its current sequence is current). With a token, every deletion after it is
    /// reported, also of records created after it: the server cannot tell which of those the
    /// client saw (its own uploads, say), and [CKFetchRecordZoneChangesOperation] only allows
    /// leaving them out (docs/CLOUDSIM.md row 31). Without a token (`includeTombstones`
    /// false) no tombstone is reported (docs/CLOUDSIM.md row 30).
    func changes(after token: Int64, limit: Int, includeTombstones: Bool) -> ZoneFeedPage {
        let found = ChangeLogPaging.page(
            log, after: token, limit: limit, finalSequence: sequence
        ) { report($0, includeTombstones: includeTombstones) }
        var page = ZoneFeedPage(
            records: [], deletions: [], resumeSequence: found.resumeSequence,
            moreComing: found.moreComing)
        // Mostly records: one allocation for them, not a growth per few appended.
        page.records.reserveCapacity(found.items.count)
        for item in found.items {
            switch item {
            case .record(let position): page.records.append(records.record(at: position))
            case .deletion(let deletion): page.deletions.append(deletion)
            }
        }
        return page
    }

    /// What a log entry reports when it is the current state of its name and may be
    /// reported: the live record's position in the table, or its deletion; nil otherwise.
    private func report(_ entry: LogEntry, includeTombstones: Bool) -> FeedItem? {
        if let position = records.position(of: entry.recordName) {
            return records.sequence(at: position) == entry.sequence ? .record(position) : nil
        }
        guard includeTombstones, let tombstone = tombstones[entry.recordName],
            tombstone.sequence == entry.sequence
        else { return nil }
        return .deletion(
            RecordDeletion(recordName: tombstone.recordName, recordType: tombstone.recordType))
    }
}

/// A reportable entry of a zone's feed, as `ZoneState.changes` builds its page from it.
private enum FeedItem {
    /// A live record, by its position in the zone's record table.
    case record(Int)
    case deletion(RecordDeletion)
}
