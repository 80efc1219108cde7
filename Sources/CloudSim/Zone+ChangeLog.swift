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
    /// The reportable entries after `token`, oldest first, at most `limit`; the sequence the
    /// next page resumes after (the last returned entry's, or `finalSequence` when nothing is
    /// left), and whether anything is left.
    static func page(
        _ log: [LogEntry], after token: Int64, limit: Int, finalSequence: Int64,
        isReportable: (LogEntry) -> Bool
    ) -> (entries: [LogEntry], resumeSequence: Int64, moreComing: Bool) {
        precondition(limit > 0, "a page holds at least one item")
        precondition(token <= finalSequence, "a token from the future")
        var entries: [LogEntry] = []
        var index = firstIndex(in: log, after: token)
        while index < log.count {
            let entry = log[index]
            index += 1
            guard isReportable(entry) else { continue }
            if entries.count == limit {
                return (entries, entries[limit - 1].sequence, true)
            }
            entries.append(entry)
        }
        return (entries, finalSequence, false)
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
        ) { isReportable($0, includeTombstones: includeTombstones) }
        var page = ZoneFeedPage(
            records: [], deletions: [], resumeSequence: found.resumeSequence,
            moreComing: found.moreComing)
        for entry in found.entries {
            if let stored = records[entry.recordName] {
                page.records.append(stored.record)
            } else if let tombstone = tombstones[entry.recordName] {
                page.deletions.append(
                    RecordDeletion(
                        recordName: tombstone.recordName, recordType: tombstone.recordType))
            }
        }
        return page
    }

    /// Whether a log entry is the current state of its name and may be reported.
    private func isReportable(_ entry: LogEntry, includeTombstones: Bool) -> Bool {
        if let sequence = records.sequence(of: entry.recordName) {
            return sequence == entry.sequence
        }
        guard let tombstone = tombstones[entry.recordName], tombstone.sequence == entry.sequence
        else { return false }
        return includeTombstones
    }
}
