import CloudSim

/// The scenario label that stands for each record, so a checker's message and expectations
/// can name a record the way the file does.
package struct RecordLabels {
    /// By `HashedRecordName`: `String`'s own hashing (SipHash) was most of a lookup.
    private var labelByRecord: [HashedRecordName: String] = [:]

    /// `labels` in the order they were bound, `recordName` the record each stands for (nil
    /// for none); the first label of a record names it.
    ///
    /// Read from the last label back, each stored over any later one: the first label wins
    /// with one hash of its record, not two (asked, then stored), in a table sized once.
    package init(labels: [String], recordName: (String) -> String?) {
        labelByRecord.reserveCapacity(labels.count)
        for label in labels.reversed() {
            guard let record = recordName(label) else { continue }
            labelByRecord[HashedRecordName(record)] = label
        }
    }

    package func label(of record: String) -> String? {
        labelByRecord[HashedRecordName(record)]
    }

    /// `n3 (Note.1A2B…)` or the record name alone when no label names it.
    package func describe(_ record: String) -> String {
        guard let label = labelByRecord[HashedRecordName(record)] else { return record }
        return "\(label) (\(record))"
    }
}
