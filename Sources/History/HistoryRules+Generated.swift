// Generated from docs/HISTORY.md by `swift run catalogue-gen`; do not edit.
import SyncContract

extension HistoryRules {
    /// The groups of docs/HISTORY.md, in page order, with the title of their section.
    static let groupTitles: [(group: String, title: String)] = [
        ("HIS", "what the engine does"),
        ("HISW", "the weaknesses (races and losses the engine does not resolve)"),
        ("HIS-DR", "discovered races (found by the explorer, not in the catalogue)"),
    ]

    /// Every rule of docs/HISTORY.md's groups, in page order.
    static let rules: [Rule] = [
        Rule(id: "HIS-1", group: "HIS", text: """
            Every record lives in one fixed zone named `CloudSyncKit`; its owner is \
            `__defaultOwner__` for the user's own data, any other owner is a sharer.
            """),
        Rule(id: "HIS-2", group: "HIS", text: """
            The record name is the model's `recordName`, a UUID assigned once, and the record type \
            is the class name; the service fields and properties starting with `_` are never \
            uploaded.
            """, choice: """
            the UUID is drawn from the device's seeded name stream when a push first reads the \
            model, and kept on disk with the push's first write.
            """),
        Rule(id: "HIS-3", group: "HIS", text: """
            Values are encoded as the tutorial's table says: String and URL as string, integers as \
            integer, Double as double, Bool as integer 1/0, Date as double seconds since 1970, \
            Data as data; anything else, UUIDs and relationships other than the parent included, \
            becomes `.null`, and the parent becomes `parentRecordID`.
            """),
        Rule(id: "HIS-4", group: "HIS", text: """
            After a successful insert the record's system fields are stored as \
            `privateRecordData`, and updates are rebuilt on them; that write uses the sync author, \
            so it is never pushed.
            """, choice: """
            a pull stores the fetched record's system fields too.
            """),
        Rule(id: "HIS-5", group: "HIS", text: """
            Local changes are read from the store's history: every transaction after the staged \
            token if there is one, else the persisted one, skipping those authored by the sync \
            author `CloudSyncKitSync`.
            """),
        Rule(id: "HIS-6", group: "HIS", text: """
            An insert encodes every field of the model, an update only its changed fields, a \
            delete reads `recordName` and `ownerName` from the tombstone; a change whose model no \
            longer exists is skipped.
            """, choice: """
            a model inserted and updated between two pushes is one insert; a model the engine \
            never named (never pushed) is skipped when deleted.
            """),
        Rule(id: "HIS-7", group: "HIS", text: """
            Reading the changes stages the last relevant transaction's token in memory, nil when \
            nothing is relevant; only a successful push persists the staged token (`markAsPushed`).
            """),
        Rule(id: "HIS-8", group: "HIS", text: """
            `markAsPushed` deletes the whole history when no unconsumed transaction is left.
            """),
        Rule(id: "HIS-9", group: "HIS", text: """
            At launch `enable()` runs setup (create the zone, subscribe to the private and shared \
            databases), then a pull, then a push; each step's failure is handled on its own and \
            does not stop the next step.
            """),
        Rule(id: "HIS-10", group: "HIS", text: """
            Every local save, i.e. a transaction not by the sync author, calls `push()`, with no \
            debounce.
            """),
        Rule(id: "HIS-11", group: "HIS", text: """
            Pushes are deduplicated: while a push runs, `push()` only sets `pushPending`; one \
            compensating run follows if it is set, and a request during the compensating run is \
            only remembered.
            """, choice: """
            a push queued behind another operation counts as running (`isPushing` is set when \
            `push()` is called).
            """),
        Rule(id: "HIS-12", group: "HIS", text: """
            While the backoff pause is on, `push()` returns without doing anything.
            """),
        Rule(id: "HIS-13", group: "HIS", text: """
            Each silent push restarts a 1 s debounce window; when it closes, the engine pulls the \
            scope the subscription ID names.
            """, choice: """
            the simulated push names no subscription, so both scopes are pulled.
            """),
        Rule(id: "HIS-14", group: "HIS", text: """
            When the network comes back after being offline, the engine pushes, and only pushes.
            """),
        Rule(id: "HIS-15", group: "HIS", text: """
            `sync` (a manual refresh) pulls, then pushes.
            """),
        Rule(id: "HIS-16", group: "HIS", text: """
            Pulls are not deduplicated: a pull is asked for even while another pull or a push is \
            running.
            """, choice: """
            the coordinator's operations run one at a time in the order they were asked for, so \
            each passes the contract's probe points in order; a second pull queues behind the \
            first instead of interleaving with it.
            """),
        Rule(id: "HIS-17", group: "HIS", text: """
            A push reads the changes (reporting `pushCompleted(0)` when there are none), resolves \
            each record's owner, groups the records by database, and sends the inserts \
            (`.allKeys`), the updates (`.changedKeys`) and the deletions, one request each, one \
            after the other, the first failure stopping the push.
            """, choice: """
            the private database's requests go first, then each sharer's, by owner name; an empty \
            request is not sent.
            """),
        Rule(id: "HIS-18", group: "HIS", text: """
            The token is committed only when every request of the push succeeded; a push that \
            failed part-way is repeated in full later.
            """),
        Rule(id: "HIS-19", group: "HIS", text: """
            A child inherits its owner through the parent chain, looked up with a visited set \
            against cycles; a child whose effective owner is a sharer is rewritten to that owner, \
            and the owner is written back locally.
            """),
        Rule(id: "HIS-20", group: "HIS", text: """
            Conflicts are never detected: `.allKeys` and `.changedKeys` compare no change tags, so \
            the last writer wins, per key for updates and per record for inserts.
            """),
        Rule(id: "HIS-21", group: "HIS", text: """
            A pull writes every field of each fetched record into the local model as the sync \
            author, whether or not the model has unpushed local changes.
            """, choice: """
            a key the record does not carry clears an optional local value (HIS-3: a value cleared \
            elsewhere is a key the record leaves out), unless the value's type never reaches \
            iCloud (HISW-9), and leaves a required one; a new record lacking a required value \
            without default is skipped; a record whose change tag is the one kept in \
            `privateRecordData` (the version this device wrote or fetched last) is not written \
            again.
            """),
        Rule(id: "HIS-22", group: "HIS", text: """
            A pull handles the private scope, then the shared one: database changes page by page, \
            deleted zones purged, each changed zone page by page with its token saved after the \
            page's data, then the database token, then `resolveMissingReferences`.
            """, choice: """
            a zone deleted and created again since the database token is in both lists: it is \
            purged like any deleted zone, then its new life is fetched from a nil token.
            """),
        Rule(id: "HIS-23", group: "HIS", text: """
            A purge deletes every local synchronized model, of every zone, the user's private ones \
            included, as the sync author, so none of the deletions is pushed.
            """),
        Rule(id: "HIS-24", group: "HIS", text: """
            Inside a pull, a `changeTokenExpired` resets that token and the pull is tried once \
            more (a budget of 1).
            """, choice: """
            a second expiry in the same scope is reported as an error and ends the pull.
            """),
        Rule(id: "HIS-25", group: "HIS", text: """
            At the end of each scope, `resolveMissingReferences` links records whose parent \
            arrived later.
            """),
        Rule(id: "HIS-26", group: "HIS", text: """
            `changeTokenExpired` → `resetTokenAndRetry`: reset that token (all tokens when no zone \
            is named), then pull again.
            """),
        Rule(id: "HIS-27", group: "HIS", text: """
            `userDeletedZone` → `purgeAndRebuild`: clear the local sync data, reset the tokens, \
            create the zone again, upload every local model as an insert.
            """),
        Rule(id: "HIS-28", group: "HIS", text: """
            `zoneNotFound` → `rebuildZone(uploadAllData: true)`: create the zone again, then \
            upload every local model.
            """, choice: """
            the recovery is an operation of its own, after the one that failed; it does not touch \
            the history token; an error inside it is reported, never recovered again.
            """),
        Rule(id: "HIS-29", group: "HIS", text: """
            `rateLimited(retryAfter)` → pause for the retry-after, 60 s when it is nil; when the \
            pause ends, the engine pushes, then pulls.
            """),
        Rule(id: "HIS-30", group: "HIS", text: """
            `serviceUnavailable` → pause for 60 s, whatever the retry-after says.
            """),
        Rule(id: "HIS-31", group: "HIS", text: """
            `networkUnavailable` → the engine marks itself offline and waits for the network; a \
            save made offline still runs a push, which fails and leaves its token staged.
            """),
        Rule(id: "HIS-32", group: "HIS", text: """
            `authenticationFailed`, `quotaExceeded`, `partialFailure` (any per-item failure) and \
            `unknown` → report an error event; nothing recovers automatically.
            """),
        Rule(id: "HIS-33", group: "HIS", text: """
            CloudKit errors map to `SyncError`: `notAuthenticated` and \
            `accountTemporarilyUnavailable` → `authenticationFailed`; `networkFailure`, \
            `networkUnavailable` → `networkUnavailable`; `requestRateLimited`, `zoneBusy` → \
            `rateLimited`; per-item errors → `partialFailure`; `serviceUnavailable`, \
            `quotaExceeded`, `zoneNotFound`, `userDeletedZone`, `changeTokenExpired` → the case of \
            the same name; everything else → `unknown`.
            """, choice: """
            a partial failure whose items all fail with `zoneNotFound`, `userDeletedZone` or \
            `quotaExceeded` (the zone is gone, the quota is full) maps to that case, as CloudKit \
            reports those per item.
            """),
        Rule(id: "HIS-34", group: "HIS", text: """
            Nothing observes the account: the engine learns of a change only from the errors of \
            its next requests, and local data is always kept.
            """),
        Rule(id: "HIS-35", group: "HIS", text: """
            Records of zones other users own are pulled from the shared database and stored with \
            their zone's owner as `ownerName`; writes to them go back by owner; `share` is the \
            world's hierarchy-share step on the root.
            """),
        Rule(id: "HIS-36", group: "HIS", text: """
            A shared zone that leaves the shared database is reported as a deleted zone, and the \
            purge removes every local model, the participant's own private data included.
            """),
        Rule(id: "HIS-37", group: "HIS", text: """
            A kill before a push has succeeded loses only the staged token: the persisted token \
            still points before the changes, so they are pushed after the next launch's pull.
            """),
        Rule(id: "HIS-38", group: "HIS", text: """
            A kill during a pull resumes from the last zone page whose token was saved; the \
            database changes of that scope are fetched again, which changes nothing.
            """),
        Rule(id: "HIS-39", group: "HIS", text: """
            There is no identity: every model has its own UUID, so independent creation makes \
            duplicates.
            """),
        Rule(id: "HIS-40", group: "HIS", text: """
            A batch delete is in the store's history, tombstones included, so the next push \
            uploads it as deletions.
            """),
        Rule(id: "HIS-41", group: "HIS", text: """
            Text and data values go into plain fields: a record over 1 MB fails with per-item \
            `limitExceeded`, which becomes `partialFailure` and an error report.
            """),
        Rule(id: "HIS-42", group: "HIS", text: """
            `stop` is `disable()`: it cancels the debounce and the backoff and clears the pending \
            flags; `start` is `enable()`; `reset-sync-data` and `initialize-schema` are not \
            supported.
            """, choice: """
            an operation already running when `disable()` is called ends; the queued ones are \
            dropped.
            """),
        Rule(id: "HISW-1", group: "HISW", text: """
            A failed push leaves its staged token behind and the next push starts after it: with \
            nothing new it uploads nothing and the failed changes wait (a), with new changes it \
            uploads only those and their success persists the token past the failed ones, which \
            are never uploaded (b).
            """, explains: ["convergence", "lost-change", "resurrection"]),
        Rule(id: "HISW-2", group: "HISW", text: """
            A push repeated after a partial failure writes its `.allKeys` inserts and \
            `.changedKeys` updates again, overwriting values other devices wrote in between.
            """, explains: ["lost-change"]),
        Rule(id: "HISW-3", group: "HISW", text: """
            A pull overwrites unpushed local edits, at launch (a pull before the push) and at a \
            reconnect (HISW-1 leaves the edit unpushed).
            """, explains: ["lost-change"]),
        Rule(id: "HISW-4", group: "HISW", text: """
            A deleted zone or a revoked share deletes every local model on the device, including \
            the data of other zones and edits never pushed.
            """, explains: ["convergence", "lost-change"]),
        Rule(id: "HISW-5", group: "HISW", text: """
            A user's purge uploads every local model again when a push meets it first, and deletes \
            every local model when a pull meets it first.
            """, explains: ["convergence", "lost-change", "resurrection"]),
        Rule(id: "HISW-6", group: "HISW", text: """
            An outage of a few seconds stops pushes for 60 s, and a partial throttle is only \
            reported, retried by nothing until the next trigger.
            """, explains: ["convergence"]),
        Rule(id: "HISW-7", group: "HISW", text: """
            The compensating push runs once, so a save made during it waits for the next trigger.
            """, explains: ["convergence"]),
        Rule(id: "HISW-8", group: "HISW", text: """
            An edit pushed before the pull that would bring a deletion made elsewhere creates the \
            record again with only the changed keys (`.changedKeys`), without needing a race.
            """, explains: ["resurrection", "convergence", "lost-change"]),
        Rule(id: "HISW-9", group: "HISW", text: """
            UUID attributes and relationships other than the parent never reach iCloud.
            """, explains: ["convergence"]),
        Rule(id: "HISW-10", group: "HISW", text: """
            After a token expires the pull starts again from scratch, which brings no tombstones, \
            so models deleted elsewhere stay.
            """, explains: ["convergence", "resurrection"]),
        Rule(id: "HISW-11", group: "HISW", text: """
            Independent creation makes duplicates.
            """, explains: ["duplicate-identity"]),
        Rule(id: "HISW-12", group: "HISW", text: """
            An account switch merges the two accounts' data in the same store, and the old data is \
            uploaded into the new account once a push meets `zoneNotFound`; if the new account \
            already has the zone, edits go up as partial `.changedKeys` records instead, and \
            deletions delete nothing of the old account's records. Changes saved under one account \
            and not pushed before a switch go up with the next push into the account then signed \
            in.
            """, choice: """
            traced where the accounts' data meet: a pull that brings the new account's records \
            into a store holding the old one's models (`pull.accounts-merged`), an update or a \
            deletion of an old account's model answered from the new account's zone \
            (`push.other-account-edit`, `push.other-account-deletion`), a switch that finds \
            changes not sent yet (`account.unpushed-changes-carried`), and a rebuild after \
            `zoneNotFound` under another account than the local data's.
            """, explains: ["convergence", "lost-change"]),
        Rule(id: "HISW-13", group: "HISW", text: """
            An oversized record fails its push every time, and the next push that has new changes \
            skips it for good (HISW-1).
            """, explains: ["convergence", "lost-change"]),
        Rule(id: "HIS-DR-1", group: "HIS-DR", text: """
            A model that one device links into another one (a relationship whose delete rule \
            cascades) while another device deletes that one without knowing: when a pull brings \
            the deletion, the store's delete rule deletes the model too, in the pull's own save, \
            whose author is never pushed (HIS-5, HIS-21): its values are lost on this device, and \
            its record stays in iCloud and on the other devices for good. With the parent the link \
            reaches iCloud and it takes a race; with any other relationship the link never does \
            (HISW-9), so the other devices never learn of it and no race is needed. (LIM-3 and \
            DR-1 are the same race on sds, MIR-DR-1 on mirror, OBX-DR-1 on outbox.)
            """, choice: """
            traced when a pull's save deletes, through a delete rule, models whose own deletion \
            the page did not bring (`pull.cascade-deleted`).
            """, explains: ["convergence", "lost-change"]),
    ]
}
