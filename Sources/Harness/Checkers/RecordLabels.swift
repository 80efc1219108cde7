/// The scenario label that stands for each record, so a checker's message and expectations
/// can name a record the way the file does.
struct RecordLabels {
    private var labelByRecord: [String: String] = [:]
    /// (record, label) in binding order, for annotating messages.
    private var pairs: [(record: String, label: String)] = []

    /// `labels` in the order they were bound; the first label of a record names it.
    init(labels: [String], table: LabelTable) {
        for label in labels {
            guard let record = table.recordName(of: label), labelByRecord[record] == nil else {
                continue
            }
            labelByRecord[record] = label
            pairs.append((record, label))
        }
    }

    /// The message with every record name a label names written as `label (record)`.
    func annotate(_ message: String) -> String {
        var text = message
        for pair in pairs where text.contains(pair.record) {
            text = text.replacing(pair.record, with: "\(pair.label) (\(pair.record))")
        }
        return text
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
