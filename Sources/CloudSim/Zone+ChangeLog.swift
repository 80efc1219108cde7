/// One page of a zone's change feed.
struct ZoneFeedPage {
    var records: [CloudRecord]
    var deletions: [RecordDeletion]
    /// The sequence the next page resumes after.
    var resumeSequence: Int64
    var moreComing: Bool
}

/// Paging over a change log (sequence, name) kept in sequence order: a participant's view of
/// a shared zone pages through it; a zone's own feed walks the same way in
/// `ZoneState.changes`, building its page as it goes.
enum ChangeLogPaging {
    /// What `report` makes of the reportable entries after `token`, oldest first, at most
    /// `limit` (`report` answers nil for an entry that is not reportable); the sequence the
    /// next page resumes after (the last returned entry's, or `finalSequence` when nothing
    /// is left), and whether anything is left.
    ///
    /// The item is what the page is built from, so that the zone's feed looks each name up
    /// once, both to tell whether its entry is current and to build the page.
    static func page<Item>(
        _ log: [LogEntry], after token: Int64, limit: Int, finalSequence: Int64,
        report: (LogEntry) -> Item?
    ) -> (items: [Item], resumeSequence: Int64, moreComing: Bool) {
        precondition(limit > 0, "a page holds at least one item")
        precondition(token <= finalSequence, "a token from the future")
        var items: [Item] = []
        var lastSequence = finalSequence
        var index = firstIndex(in: log, after: token)
        // Room for the page at once, not grown a few times a page: a page holds at most
        // `limit` items, and at most one per entry left.
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
    static func firstIndex(in log: [LogEntry], after token: Int64) -> Int {
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
    /// false) no tombstone is reported (docs/CLOUDSIM.md row 30) but those of the records
    /// `creator` created, when it is given (FORUM-813286).
    func changes(
        after token: Int64, limit: Int, includeTombstones: Bool, creator: String? = nil
    ) -> ZoneFeedPage {
        // `ChangeLogPaging.page`'s walk, the page built as it goes, with no list of the
        // reportable entries first: one array a fetch, not two.
        precondition(limit > 0, "a page holds at least one item")
        precondition(token <= sequence, "a token from the future")
        var page = ZoneFeedPage(
            records: [], deletions: [], resumeSequence: sequence, moreComing: false)
        var index = ChangeLogPaging.firstIndex(in: log, after: token)
        // Mostly records: room for a page's worth of them at once, not a growth per few
        // appended (a page holds at most `limit` items, and at most one per entry left),
        // up to a bound past which the array grows as needed.
        page.records.reserveCapacity(Swift.min(limit, log.count - index, 64))
        var itemCount = 0
        var lastSequence = sequence
        while index < log.count {
            // The entry read where it is stored (`report(at:)`): a copy of it retained and
            // released its record name, for every entry a fetch walks.
            let position = index
            index += 1
            guard
                let item = report(
                    at: position, includeTombstones: includeTombstones, creator: creator)
            else {
                continue
            }
            if itemCount == limit {
                page.resumeSequence = lastSequence
                page.moreComing = true
                return page
            }
            switch item {
            case .record(let position): page.records.append(records.record(at: position))
            case .deletion(let deletion): page.deletions.append(deletion)
            }
            itemCount += 1
            lastSequence = log[position].sequence
        }
        return page
    }

    /// What the log entry at `index` reports when it is the current state of its name and may
    /// be reported: the live record's position in the table, or its deletion; nil otherwise.
    private func report(
        at index: Int, includeTombstones: Bool, creator: String?
    ) -> FeedItem? {
        if let position = records.position(
            of: log[index].recordName, nameHash: log[index].nameHash)
        {
            return records.sequence(at: position) == log[index].sequence ? .record(position) : nil
        }
        guard includeTombstones || creator != nil,
            let tombstone = tombstone(named: log[index].recordName, nameHash: log[index].nameHash),
            tombstone.sequence == log[index].sequence,
            includeTombstones || (creator != nil && tombstone.createdBy == creator)
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
