// Generated from docs/APP-RULES.md by `swift run catalogue-gen`; do not edit.
import SyncContract

extension AppRules {
    /// The groups of docs/APP-RULES.md, in page order, with the title of their section.
    static let groupTitles: [(group: String, title: String)] = [
        ("APPW", "the weaknesses an app's CKSyncEngine code can have"),
    ]

    /// Every rule of docs/APP-RULES.md's groups, in page order.
    static let rules: [Rule] = [
        Rule(id: "APPW-1", group: "APPW", text: """
            A change the engine reported failed with an error it does not retry itself \
            (`quotaExceeded`, `userDeletedZone`, `serverRecordChanged`, `zoneNotFound`, \
            `unknownItem` for a save, …) is not scheduled again: CKSyncEngine drops it from its \
            pending changes, so a save stays on the device only and a deletion never reaches \
            iCloud.
            """, choice: """
            observed when the delegate's `handleEvent(.sentRecordZoneChanges)` returns: each \
            failed save whose `saveRecord` is not pending again, and each failed deletion (other \
            than `unknownItem`, the record already gone) whose `deleteRecord` is not, is traced \
            `app.failed-change-dropped` with its record and error code, unless the app tracks its \
            changes itself and set `hasPendingUntrackedChanges`. An app that schedules the change \
            again later, from a `Task` it started there, is traced all the same.
            """, explains: ["convergence", "lost-change", "resurrection"]),
        Rule(id: "APPW-2", group: "APPW", text: """
            A merge keeps one side's whole record, and an edit of a field only the other side \
            changed is lost: a save sends a field's older value back over a newer one the device \
            was given (a fetched change, or the server record of a `serverRecordChanged` error), \
            or the save that follows a conflict drops the device's own edit of a field the \
            server's copy did not change (whole-record-wins merges, a merge by modification date).
            """, choice: """
            observed at each record the delegate's `nextRecordZoneChangeBatch` returns. The \
            device's copies of a record are the answer to its last save of it (or, for a record it \
            never saved, the first copy it fetched), then each server copy it was given since, and \
            what each save whose answer was lost (`networkFailure`, `serverResponseLost`) sent, \
            which iCloud may hold, the last eight kept; a changed key whose value differs from the \
            newest copy's and equals an earlier copy's is an older value sent back, traced \
            `app.older-value-sent` with the first such field. A field the device set itself to a \
            value it had not seen since its last save is its own edit, not traced (a field both \
            devices changed is the last writer's); an edit that sets a field back to a value of an \
            earlier copy (a flag turned off again) is traced all the same. The copies are kept \
            with the device across the app's launches (a reinstall forgets them), so a record sent \
            after a relaunch is judged against what the device was given before it.
            the first save of a record after a save of it failed (`serverRecordChanged`, or an \
            error CKSyncEngine retries itself, such as a throttle) is compared with the record \
            that failed and the copy the device knew before it: when the device has been given a \
            newer server copy since (the conflict's, or a fetched one), a field the failed record \
            changed and that copy did not, whose edit the new save lacks, is traced \
            `app.own-edit-dropped` with the field. An edit the device itself replaced meanwhile by \
            another value is traced all the same; an app that takes the server's copy and \
            schedules nothing is APPW-1's.
            an edit never sent is seen through its pending save: a record fetched while its save \
            waits to be sent, in a copy that differs from the newest the device knew, is \
            remembered; when the delegate's handling of the page leaves the save no longer \
            pending, or the record's next save sends no key whose value differs from the fetched \
            copy's, the device's unsent edit was replaced by that copy, traced \
            `app.unsent-edit-dropped` with the record (which field the edit was, the watch cannot \
            know). An edit equal to the other device's (both set the same value) is traced all the \
            same.
            """, explains: ["convergence", "lost-change"]),
        Rule(id: "APPW-3", group: "APPW", text: """
            A save refused with `unknownItem` (the record was deleted elsewhere) is scheduled \
            again: the app saves the record anew and undoes the other device's deletion (an edit \
            that wins over a concurrent deletion).
            """, choice: """
            observed when the delegate's `handleEvent(.sentRecordZoneChanges)` returns: a failed \
            save with `unknownItem` whose `saveRecord` is pending again is traced \
            `app.deleted-record-saved-again`.
            """, explains: ["convergence", "resurrection"]),
        Rule(id: "APPW-4", group: "APPW", text: """
            A fetched change brings a record whose deletion this device has not sent yet: an app \
            that applies it as it applies any fetched record makes the model again, and its \
            pending deletion is then sent, or replaced by the next edit's save.
            """, choice: """
            observed when `fetchedRecordZoneChanges` arrives, before the delegate handles it: each \
            modification of a record whose `deleteRecord` is pending is traced \
            `app.fetched-record-deletion-pending`, whatever the app then does with it.
            """, explains: ["convergence", "resurrection"]),
        Rule(id: "APPW-5", group: "APPW", text: """
            A zone's deletion or an account change arrives while changes wait to be sent: Apple's \
            guidance (delete the local data of a zone the user deleted, of an account signed out \
            or switched from) drops them with everything else, and a change made offline or \
            refused just before is lost (a deletion with it: the record comes back).
            """, choice: """
            observed before the delegate handles the event, when `fetchedDatabaseChanges` brings \
            the deletion of a zone with record changes pending in it, or `accountChange` reports a \
            sign-out or a switch for which CKSyncEngine dropped pending record changes (it resets \
            its state, pending changes included, before it tells the app): traced \
            `app.changes-pending-at-reset` with the zone or the change and the number of changes. \
            An app that keeps its local data there and schedules it again is traced all the same.
            """, explains: ["convergence", "lost-change", "resurrection"]),
        Rule(id: "APPW-6", group: "APPW", text: """
            A zone deleted by another device's code, not by the user, is taken as the user's wish: \
            an app that deletes its local data when the zone's deletion comes down (Apple's sample \
            does, for every reason) loses records nobody deleted, on every device, where \
            recreating the zone and sending its data again keeps them.
            """, choice: """
            observed when `fetchedDatabaseChanges` brings the deletion of a zone for the reason \
            `deleted` (not `purged`, the user's deletion, nor `encryptedDataReset`), before the \
            delegate handles it: traced `app.zone-deleted-elsewhere` with the zone, whatever the \
            app then does.
            """, explains: ["convergence", "lost-change"]),
        Rule(id: "APPW-7", group: "APPW", text: """
            After a change token expires, what was deleted meanwhile is never reported: \
            CKSyncEngine fetches the database's feed or the zone again from scratch, which lists \
            the zones and records that exist and no deletion, so an app that applies only what a \
            fetch brings keeps records deleted elsewhere, and records of a zone deleted meanwhile \
            that iCloud no longer has, and never sends them again.
            """, choice: """
            observed when a fetch that started the database's feed (`didFetchChanges`) or a zone \
            (`didFetchRecordZoneChanges` without an error) again from scratch after its token \
            expired ends, before the delegate handles the event: traced `app.fetched-from-scratch` \
            with the database or the zone, whatever the app then does (an app that compares what \
            it holds with what the fetch brought does not lose them).
            """, explains: ["convergence", "lost-change", "resurrection"]),
        Rule(id: "APPW-8", group: "APPW", text: """
            A save without a change tag creates again a record another device deleted: a record's \
            first save whose answer was lost (the device went offline or was killed while it was \
            in flight) stays pending and is sent again as it was, without the system fields the \
            answer would have given, and CloudKit takes a save without a change tag of a deleted \
            record's name as a new record, so the deletion is lost on every device.
            """, choice: """
            traced by the cloud (note `record.created-over-tombstone`, docs/CLOUDSIM.md *Notes*) \
            when a save without a change tag creates a record whose name was deleted and not \
            written since: neither the app nor CKSyncEngine can tell a lost answer from a save \
            that never arrived, so the watch has nothing to see before the save. An app that \
            creates a record again under a fixed name on purpose (a settings record) is traced all \
            the same.
            """, explains: ["convergence", "resurrection"]),
        Rule(id: "APPW-9", group: "APPW", text: """
            A failed save is scheduled again after the device's own deletion of the record: the \
            user deleted the record while its save was in flight, and the delegate's answer to the \
            failure (a `serverRecordChanged` merged and retried, a `zoneNotFound` sent again once \
            the zone is made, …) adds a `saveRecord`, which replaces the pending `deleteRecord` \
            (CKSyncEngine keeps one change per record), so the deletion is never sent and the \
            record comes back, on this device too once a fetch brings it.
            """, choice: """
            observed when the delegate's `handleEvent(.sentRecordZoneChanges)` returns: a failed \
            save whose record's `deleteRecord` was pending when the event arrived and whose \
            `saveRecord` is pending after it is traced `app.deletion-replaced-by-retry` with the \
            record. An app that means the save to win over the deletion is traced all the same.
            """, explains: ["convergence", "resurrection"]),
    ]
}
