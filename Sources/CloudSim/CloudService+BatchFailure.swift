/// `failNextBatch`: an upload that fails as a whole, as an atomic zone's batch does when one
/// item fails ([CKError.Code] `batchRequestFailed`), also reported for non-atomic sends.
extension CloudService {
    /// The account's next upload with saves or deletes fails as a whole, nothing applied:
    /// the first item with `code` when given (the real error), every other item with
    /// `batchRequestFailed`. Replaces one armed before.
    public func failNextBatch(account: String, firstItem code: CloudErrorCode?) {
        ensureAccount(account)
        batchFailures[account] = BatchFailure(firstItem: code)
    }

    /// The answer to a request that meets an armed batch failure; nil when none is armed.
    func failedBatch(_ request: ModifyRecordsRequest, account: String) -> CloudOutcome? {
        guard let failure = batchFailures[account],
              !request.saves.isEmpty || !request.deletes.isEmpty
        else { return nil }
        batchFailures[account] = nil
        let saves = request.saves.map(\.record.recordName)
        var results: [ItemResult] = []
        for (position, name) in (saves + request.deletes).enumerated() {
            let isSave = position < saves.count
            if position == 0, let code = failure.firstItem {
                results.append(.failed(recordName: name, CloudMessages.rejected(name, code: code)))
            } else {
                let error = isSave
                    ? CloudMessages.batchSaveFailed(name) : CloudMessages.batchDeleteFailed(name)
                results.append(.failed(recordName: name, error))
            }
        }
        let note = CloudNote(kind: "records.batch-failed", details: [
            NoteField("zone", request.zone.description),
            NoteField("items", String(results.count)),
            NoteField("firstItem", failure.firstItem?.description ?? "batchRequestFailed"),
        ])
        return CloudOutcome(response: .recordsModified(results), notes: [note])
    }
}

/// An armed `failNextBatch`.
struct BatchFailure: Hashable, Sendable {
    /// The real error of the request's first item; nil: every item `batchRequestFailed`.
    var firstItem: CloudErrorCode?
}
