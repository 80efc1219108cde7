/// The scenario label that stands for each record, so a checker's message and expectations
/// can name a record the way the file does.
struct RecordLabels {
    private var labelByRecord: [String: String] = [:]

    /// `labels` in the order they were bound; the first label of a record names it.
    init(labels: [String], table: LabelTable) {
        for label in labels {
            guard let record = table.recordName(of: label), labelByRecord[record] == nil else {
                continue
            }
            labelByRecord[record] = label
        }
    }

    func label(of record: String) -> String? {
        labelByRecord[record]
    }

    /// `n3 (Note.1A2B…)` or the record name alone when no label names it.
    func describe(_ record: String) -> String {
        guard let label = labelByRecord[record] else { return record }
        return "\(label) (\(record))"
    }
}
