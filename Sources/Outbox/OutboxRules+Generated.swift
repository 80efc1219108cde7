// Generated from docs/OUTBOX.md by `swift run catalogue-gen`; do not edit.
import SyncContract

extension OutboxRules {
    /// The groups of docs/OUTBOX.md, in page order, with the title of their section.
    static let groupTitles: [(group: String, title: String)] = [
        ("OBX", "what the engine does"),
        ("OBXW", "the weaknesses (races and losses the engine does not resolve)"),
        ("OBX-DR", "discovered races (found by the explorer, not in the catalogue)"),
    ]

    /// Every rule of docs/OUTBOX.md's groups, in page order.
    static let rules: [Rule] = [
        Rule(id: "OBX-1", group: "OBX", text: """
            A model's record is named with the model's stable UUID string, has the entity's name \
            as record type and one field per synchronized property (to-one relationships as \
            same-zone references, the `parent` relationship as the record's parent too).
            """, choice: """
            the UUID is drawn from the device's seeded name stream when the model's first save is \
            recorded, and kept on disk.
            """),
        Rule(id: "OBX-2", group: "OBX", text: """
            Collections map to zones: a model of a `sharable` entity is the root of a collection \
            whose ID is its record name, living with every model below it through `parent` in zone \
            `Collection-<id>` of the owner's private database; every other model belongs to \
            collection `main`, in zone `Main`.
            """),
        Rule(id: "OBX-3", group: "OBX", text: """
            `ensureZoneExists(zone, collectionID)` runs at every launch and Sync Now for each \
            owned collection that has local models (and `main`), and whenever a new collection \
            root is saved: it tracks the zone as owned and adds a pending `saveZone`, which \
            CKSyncEngine sends before any record change; it is idempotent. The zone is named by \
            the account of the user the CKSyncEngine last reported (OBX-26, its user record name \
            as `CKContainer.userRecordID()` gives it), or, before any report, by the account \
            signed in at the first zone ensured: a switch the CKSyncEngine has not reported \
            renames nothing, as the default owner renames nothing on a device; a zone named for \
            another user leaves the manifest with its pending saves.
            """),
        Rule(id: "OBX-4", group: "OBX", text: """
            Every save of a model writes exactly one outbox row for it (record name, record type, \
            collection, mutation `save` or `delete`, a delete replacing a save), with no list of \
            changed keys, in the same step as the save; it survives kill.
            """, choice: """
            saves made while nothing observes the store (`observe off`) get no row: such models \
            are uploaded once edited.
            """),
        Rule(id: "OBX-5", group: "OBX", text: """
            A transaction that is rolled back saves nothing, so it writes no row and is never \
            uploaded.
            """, choice: """
            the device tells the engine what a rollback discarded (the contract's `rolledBack`); \
            the engine traces it with this ID (`outbox.rolled-back`, the models and their changes) \
            and writes nothing; a row that an earlier save of the same model wrote stays, since \
            that save happened.
            """),
        Rule(id: "OBX-6", group: "OBX", text: """
            A batch delete changes the store without the adapter, so it writes no row: the records \
            stay in iCloud and nothing restores the models until the records change remotely.
            """, choice: """
            the engine notices the vanished models at the next save of the app, launch or Sync \
            Now, traces them and forgets their record names. A fetched record it has no model and \
            no row for, whose archived system fields are of that very version (it did not change \
            remotely since), is not restored (`fetch.not-restored`): so a first fetch of the zone \
            from scratch, which brings every live record, does not bring them back; a version \
            changed remotely is.
            """),
        Rule(id: "OBX-7", group: "OBX", text: """
            `reconcileOutbox()` runs after every local commit, at launch, on Sync Now and after a \
            zone or account recovery: every row whose collection is mapped to a tracked zone is \
            marked attempted and added to that zone's CKSyncEngine as `saveRecord` / \
            `deleteRecord`; rows of unmapped collections stay and are not sent.
            """, choice: """
            with `autosync off` a commit writes its row but does not reconcile.
            """),
        Rule(id: "OBX-8", group: "OBX", text: """
            There are two CKSyncEngines, private and shared, both with `automaticallySync`: added \
            changes schedule a send and a push a fetch, each after the scheduler delay of 1 s; the \
            shared engine exists only while a shared zone is tracked; offline, nothing goes out.
            """, choice: """
            offline requests fail with `networkUnavailable` and CKSyncEngine retries them \
            (OBX-19); the state shows `waiting(network)`; a launch whose first fetch fails so ends \
            there (`launch.fetch-failed`: the app runs, the fetch waits for its retry), and when \
            the network returns a fetch waiting for its retry runs at once (OBX-9, \
            `network.online-fetch`).
            """),
        Rule(id: "OBX-9", group: "OBX", text: """
            Each CKSyncEngine runs one operation at a time; Sync Now sends what its reconcile \
            staged, then fetches the private database, then the shared one; when the network \
            returns, a pending send runs at once, and a fetch only when a push arrives or one was \
            due.
            """),
        Rule(id: "OBX-10", group: "OBX", text: """
            `sync` (Sync Now) is `fetchChangesNow()`.
            """),
        Rule(id: "OBX-11", group: "OBX", text: """
            `nextRecordZoneChangeBatch` walks the pending saves in the order they were added and \
            builds each record from its outbox row: the model's current value of every \
            synchronized property on top of the archived system fields of the last known server \
            copy (none: a new record); a pending save with no save row or no model is removed; at \
            most 400 items.
            """),
        Rule(id: "OBX-12", group: "OBX", text: """
            Records are saved with `ifServerRecordUnchanged`, in batches that are not atomic.
            """),
        Rule(id: "OBX-13", group: "OBX", text: """
            A saved record has its returned system fields archived and its outbox row deleted \
            (`acceptSavedRecord`); a deleted record's row is deleted too (`acceptDeletedRecordID`).
            """),
        Rule(id: "OBX-14", group: "OBX", text: """
            A `serverRecordChanged` is resolved by `resolveConflict(local, server)`: the reference \
            adapter keeps every local value, archives the server's system fields and queues the \
            save again in the server copy's zone (the cloud may have resolved the zone's owner \
            into the account signed in), so the next send overwrites every field of the server \
            record.
            """, choice: """
            whole-record local-wins; the row has no key list, so the adapter cannot merge key by \
            key.
            """),
        Rule(id: "OBX-15", group: "OBX", text: """
            A fetched record of a model with an outbox save row keeps the local values and only \
            has its system fields archived; otherwise every synchronized property is set from the \
            record (a key it lacks becomes nil or the default) and a missing model is inserted.
            """, choice: """
            a fetched record of a model the app deleted, whose delete row is not yet sent, is not \
            applied (a missing model is inserted only when no delete row waits): the model stays \
            deleted and the delete goes up (traced `fetch.deletion-pending`).
            """),
        Rule(id: "OBX-16", group: "OBX", text: """
            A fetched deletion of a model with an outbox save row keeps the model and clears its \
            archived system fields, so the pending save creates the record again, as new, with \
            every value; otherwise the model and its row are deleted.
            """, choice: """
            a save sent with the archived system fields of a record that fails with `unknownItem` \
            (the record was deleted since) is handled as this fetched deletion: the model and its \
            row stay, the archive is cleared, so the next reconcile creates the record again in \
            full (traced `save.record-deleted`); until then it stays marked failed (OBX-20).
            """),
        Rule(id: "OBX-17", group: "OBX", text: """
            A delete that fails with `unknownItem` counts as done, and its row is cleared.
            """, choice: """
            the simulated cloud answers a delete of a missing record with success by default, and \
            the row is then cleared as an accepted deletion (OBX-13); with `cloud missing-deletes \
            unknown-item` it answers a per-item `unknownItem`, which this rule clears (traced \
            `delete.already-gone`).
            """),
        Rule(id: "OBX-18", group: "OBX", text: """
            Only zones the engine tracks are applied: fetched changes of any other zone are \
            dropped.
            """, choice: """
            a `Collection-*` zone of the device's own private database that the database feed \
            reports is another device's collection of the same account: it is tracked as owned (so \
            two devices of one account converge on sharable models), traced with this ID.
            """),
        Rule(id: "OBX-19", group: "OBX", text: """
            A save or delete that fails with a retryable code (`networkFailure`, \
            `networkUnavailable`, `zoneBusy`, `serviceUnavailable`, `notAuthenticated`, \
            `operationCancelled`, `requestRateLimited`, `resultsTruncated`, \
            `accountTemporarilyUnavailable`) is queued again, and CKSyncEngine retries by itself, \
            after the retry-after when one is given, else with its backoff: 1 s, 2 s, 4 s … up to \
            5 min, as in the sds choice.
            """),
        Rule(id: "OBX-20", group: "OBX", text: """
            A save that fails with any other code (`quotaExceeded`, per-item `limitExceeded`, \
            `permissionFailure`, `invalidArguments`, `unknownItem`, …) is marked failed \
            (`markRecordFailed`): its row stays with the code as `lastRejectionReason`, the state \
            shows `error(CODE)`, and only the next reconcile stages it again.
            """),
        Rule(id: "OBX-21", group: "OBX", text: """
            A delete that fails for any other reason (not `unknownItem`, not a missing zone, not \
            retryable) only sets a message: its row stays and the next reconcile stages it again.
            """),
        Rule(id: "OBX-22", group: "OBX", text: """
            If the store refuses a fetched batch, it is rolled back, but CKSyncEngine's change \
            token still advances, so those records are not fetched again until they change.
            """),
        Rule(id: "OBX-23", group: "OBX", text: """
            CKSyncEngine keeps the tokens and the pending list itself; the engine persists them \
            only when a `stateUpdate` hands over a serialization, right after the batch it covers, \
            and updates from added pending changes are coalesced for 100 ms.
            """),
        Rule(id: "OBX-24", group: "OBX", text: """
            A `changeTokenExpired` is handled inside CKSyncEngine, which fetches again from \
            scratch; that fetch returns no deletions, so models deleted elsewhere meanwhile stay.
            """, choice: """
            the precedence over the cloud's first-fetch rule (docs/CLOUDSIM.md row 30): a device's \
            first fetch of a zone its own upload created, which would bring the deletions of the \
            records it created, brings none when it follows a `changeTokenExpired` (of the \
            database token or of the zone's), so the expiry misses them too, whether it came \
            before that first fetch or after.
            """),
        Rule(id: "OBX-25", group: "OBX", text: """
            An owned zone that goes missing (a send fails with `zoneNotFound` or \
            `userDeletedZone`, or a fetched database change reports it deleted, for any reason) is \
            restored: the records accepted in the same batch are committed, the zone is ensured \
            again, and every local model of that collection is queued again with its system fields \
            cleared.
            """),
        Rule(id: "OBX-26", group: "OBX", text: """
            On an account change CKSyncEngine resets its state, and the adapter acts on the kind: \
            on sign-in it names its zones by the reported user (OBX-3), ensures them and \
            reconciles; on sign-out it shows `signed-out` and keeps the local data; on a switch it \
            clears the zone manifest, names its zones by the new user, ensures them again and \
            queues every owned collection with cleared system fields.
            """),
        Rule(id: "OBX-27", group: "OBX", text: """
            Account checks carry a request number; a temporarily unavailable account is retried \
            and resets nothing (state `waiting(account)`).
            """),
        Rule(id: "OBX-28", group: "OBX", text: """
            A collection is shared as its whole zone (`cloudkit.zoneshare`): `share f1 with bob` \
            shares the zone of f1's collection.
            """),
        Rule(id: "OBX-29", group: "OBX", text: """
            After accepting, the participant calls `adoptSharedZone(zoneID, collectionID)`: the \
            zone is tracked with its role persisted, and each zone's reads and writes go to the \
            database of its own role, so a device can own some zones and participate in others.
            """, choice: """
            the accepted share's metadata reaches the engine as the push that follows `accept \
            share`: the engine then looks at the shared database and adopts every zone it does not \
            track.
            """),
        Rule(id: "OBX-30", group: "OBX", text: """
            Before a share is adopted, `prepareToAdoptShare(collection)` runs, scoped to that one \
            collection: every other collection is untouched and nothing private is written into \
            the shared zone.
            """, choice: """
            the reference adapter's hook changes nothing.
            """),
        Rule(id: "OBX-31", group: "OBX", text: """
            A shared zone that is revoked (it leaves the shared database: stop, removal, the \
            owner's zone deleted; or a send there fails with `zoneNotFound`) is untracked, its \
            collection unmapped, and `recoverFromRevokedShare(collection)` called, which keeps the \
            local copies; later edits of them get rows that are never sent.
            """),
        Rule(id: "OBX-32", group: "OBX", text: """
            A write through a read-only share fails with `permissionFailure` and is handled as \
            OBX-20: the row is kept and not sent again.
            """),
        Rule(id: "OBX-33", group: "OBX", text: """
            Kills lose nothing: after a local save the row is on disk, so the next launch's \
            reconcile sends it; killed between a fetched batch being applied and its `stateUpdate` \
            being persisted, the batch is fetched and applied again, which changes nothing.
            """, choice: """
            a launch that finds a fetched page applied but its `stateUpdate` not persisted traces \
            this ID (`fetch.page-again`) before the page is fetched again.
            """),
        Rule(id: "OBX-34", group: "OBX", text: """
            A record over 1 MB fails with per-item `limitExceeded` and is handled as OBX-20, so it \
            is never uploaded (no overflow mechanism); `asset` properties are uploaded as CKAssets.
            """),
        Rule(id: "OBX-35", group: "OBX", text: """
            There is no identity: every model has its own UUID, so two devices that create the \
            same thing make two records.
            """),
        Rule(id: "OBX-36", group: "OBX", text: """
            Nothing about the schema is checked locally; in production a missing field fails with \
            `invalidArguments` (OBX-20).
            """),
        Rule(id: "OBX-37", group: "OBX", text: """
            `stop`, `start` and `initialize-schema` are not supported (refused when the scenario \
            is checked); `reset-sync-data` is `resetPersistedState()`: it forgets the zone \
            manifest and both engine states at the next launch and keeps the local data.
            """, choice: """
            `reset-sync-data then delete-all` also deletes every local model at once, as the \
            adapter's own save: it is not recorded, so no deletion is uploaded and the records \
            come back with the next launch's fetch from scratch; the deleted models' save rows, \
            names and archives are forgotten (traced `reset.before-forgetting`).
            """),
        Rule(id: "OBXW-1", group: "OBXW", text: """
            Concurrent edits of different keys are not merged: the device that sends second meets \
            `serverRecordChanged` and overwrites the other device's key with its own stale value \
            (OBX-14).
            """, choice: """
            traced when a conflict's local record differs from the server's in a key the other \
            device changed and this one did not (compared with the archived copy), or in any key \
            when there is no archived copy (a zone recovery cleared it, OBX-25); and when a \
            fetched record whose model has a pending save differs from the local values (OBX-15): \
            the pending save will overwrite them.
            """, explains: ["lost-change"]),
        Rule(id: "OBXW-2", group: "OBXW", text: """
            A model edited on one device while another deletes it is kept and created again in \
            full (OBX-16), so the deletion is lost.
            """, choice: """
            traced when a fetched deletion is refused for a pending save, and when a save fails \
            with `unknownItem` (the record was deleted elsewhere): until the deletion is fetched, \
            the devices disagree. Also traced by the cloud (note `record.created-over-tombstone`, \
            docs/CLOUDSIM.md) when a save without system fields creates again a record another \
            device deleted: an insert sent again after its answer was lost (OBX-19), which no \
            fetch of this device ever shows as deleted.
            """, explains: ["convergence", "resurrection"]),
        Rule(id: "OBXW-3", group: "OBXW", text: """
            An edit committed while the model's previous version is being sent is lost until the \
            model changes again: its row is the same row, the earlier send's success deletes it \
            (OBX-13), and the pending save finds no row (OBX-11).
            """, choice: """
            traced when a save succeeds for a model edited while it was in flight whose values \
            differ from the saved record.
            """, explains: ["lost-change"]),
        Rule(id: "OBXW-4", group: "OBXW", text: """
            A batch that the store refuses is skipped for good: the token advances past it \
            (OBX-22).
            """, explains: ["convergence", "lost-change"]),
        Rule(id: "OBXW-5", group: "OBXW", text: """
            A `quotaExceeded`, a record that is too large or a production-schema rejection waits \
            for a reconcile trigger (a local commit, `sync`, a launch): no timer retries it \
            (OBX-20).
            """, explains: ["convergence", "lost-change"]),
        Rule(id: "OBXW-6", group: "OBXW", text: """
            A zone the user purged is created again and filled from the device (OBX-25).
            """, explains: ["resurrection"]),
        Rule(id: "OBXW-7", group: "OBXW", text: """
            An account switch uploads the previous account's data into the new account (OBX-26).
            """, explains: ["convergence", "lost-change", "resurrection"]),
        Rule(id: "OBXW-8", group: "OBXW", text: """
            After a share is revoked its copies remain and their edits pile up unsent, so the \
            devices never converge (OBX-31).
            """, explains: ["convergence", "lost-change"]),
        Rule(id: "OBXW-9", group: "OBXW", text: """
            Batch deletes never reach iCloud (OBX-6).
            """, explains: ["convergence", "resurrection"]),
        Rule(id: "OBXW-10", group: "OBXW", text: """
            After a token expires, deletions made elsewhere are missed (OBX-24).
            """, choice: """
            traced after any zone fetch from scratch (an expired token, or one a kill kept from \
            being persisted) for the local models the device had seen in iCloud, has no row for, \
            and the fetch did not bring.
            """, explains: ["convergence", "resurrection"]),
        Rule(id: "OBXW-11", group: "OBXW", text: """
            Independent creation makes duplicates (OBX-35).
            """, explains: ["duplicate-identity"]),
        Rule(id: "OBXW-12", group: "OBXW", text: """
            Calling into CKSyncEngine from inside a delegate callback is fatal; the engine sends \
            from outside any callback (a detached send), and the simulated CKSyncEngine traps a \
            re-entrant call.
            """),
        Rule(id: "OBX-DR-1", group: "OBX-DR", text: """
            A model that one device moves or creates inside another one (a relationship whose \
            delete rule cascades) while another device deletes that one without knowing: when the \
            deletion is fetched, the store's delete rule deletes the model too, in the adapter's \
            own save, so no delete row is written (OBX-4, OBX-7): its record stays in iCloud and \
            on the other devices, this device lacks it for good, and its pending save is dropped \
            (OBX-11). (LIM-3 and DR-1 are the same race on sds.)
            """, choice: """
            traced when a fetched page's save deletes, through a delete rule, models whose own \
            deletion the page did not bring (`fetch.cascade-deleted`).
            """, explains: ["convergence", "lost-change"]),
        Rule(id: "OBX-DR-2", group: "OBX-DR", text: """
            A model deleted on one device shortly before its zone is deleted (by another device, \
            or by a deletion the device made while signed out) comes back: a device that still \
            holds the model, because it never fetched the deletion before the zone went missing, \
            restores the zone from its own store (OBX-25) and uploads the model again, so iCloud \
            and the device that deleted it have it again. (OBXW-6 is the same restoration after a \
            purge.)
            """, choice: """
            traced when a zone that went missing for any reason other than a purge is restored \
            with models of the device queued again (`zone.refilled-from-device`): any of them may \
            be one another device deleted, which this device cannot tell.
            """, explains: ["resurrection"]),
        Rule(id: "OBX-DR-3", group: "OBX-DR", text: """
            An account switch and back that the CKSyncEngine never sees (its account checks met an \
            outage, so it never reported a switch and never reset, OBX-26) carries an edit or a \
            deletion made under the other account into this one: the row stays queued and is sent \
            once the device is back on the first account, so the account it was made in never gets \
            it, and a deletion removes this account's record, whose saves are lost.
            """, choice: """
            traced when a batch saves or deletes a record whose latest edit or deletion was \
            recorded while the device was signed into another account (a deletion that replaces \
            the unsent row of such an edit counts as that edit: it is never sent to the account it \
            was made in), with no account switch reported by the CKSyncEngine since \
            (`batch.carried-across-accounts`; a reported switch is OBXW-7's); an edit made signed \
            out counts for the account signed into next (ACCT-1), so it is not one. The account an \
            edit was recorded under is kept on disk, so a kill and relaunch in between still trace \
            it; the row goes to the zone of the user the CKSyncEngine knows (OBX-3), whichever \
            account the device was on.
            """, explains: ["lost-change"]),
        Rule(id: "OBX-DR-4", group: "OBX-DR", text: """
            A model that moves into another collection (a note linked into a `sharable` folder, or \
            taken out of one) is saved in the new collection's zone under the same record name \
            (OBX-2: a row names its current collection only, OBX-4), and nothing deletes its \
            record in the old zone: iCloud keeps a copy there with the values it had before the \
            move, never updated again, which the old zone's readers (a device fetching it from \
            scratch, a share of that collection) still get.
            """, choice: """
            traced where the adapter records a save of a model whose collection differs from the \
            one its record was last recorded or fetched in (`record.collection-changed`, with both \
            collections); the record is built in the new collection's zone and the old zone's copy \
            is left, as the design leaves it.
            """, explains: ["convergence", "lost-change"]),
        Rule(id: "OBX-DR-5", group: "OBX-DR", text: """
            A record fetched before the record it refers to (the target's upload was held back: \
            throttled, refused, or sent in a later batch) gets its relationship empty: the \
            reference adapter resolves a reference only to a model already in the store or new in \
            the same page (OBX-15), and the target's later arrival sets nothing, so the model \
            stays out of its folder on that device while iCloud and the other devices have it in.
            """, choice: """
            traced when a fetched page applies a record whose reference (a field or the parent) \
            names a record the device holds neither in its store nor in the page \
            (`fetch.reference-unresolved`); a target deleted elsewhere is traced too, where the \
            empty relationship is the right one.
            """, explains: ["convergence"]),
        Rule(id: "OBX-DR-6", group: "OBX-DR", text: """
            A zone deleted elsewhere while this device has no change token for it (the token \
            expired, or an account change reset the CKSyncEngine's state, OBX-26) is created again \
            empty by the device's own zone save (OBX-3 ensures it at every launch, Sync Now and \
            sign-in, and the send goes before the fetch), so the fetch from scratch that follows \
            finds the zone there and reports no deletion, and no send fails with `zoneNotFound`: \
            OBX-25 never restores it, and the device's uploaded models stay on the device only, \
            never sent again, while iCloud and the other devices lack them.
            """, choice: """
            traced when a fetch from scratch of an owned zone this device saved since its last \
            fetch ended brings no deletion and no record other than the ones this device saved \
            since that zone save (as it saved them), while it misses uploaded models of the zone \
            with nothing pending (`fetch.saved-zone-empty`); a zone whose other records were all \
            deleted elsewhere looks the same to the device, which cannot tell (OBXW-10).
            """, explains: ["convergence", "lost-change"]),
        Rule(id: "OBX-DR-7", group: "OBX-DR", text: """
            A zone deleted elsewhere while this device has no change token for it (the token \
            expired, or an account change reset the CKSyncEngine's state, OBX-26), and created \
            again by another device before this one fetches (its restoration from its own store, \
            OBX-25, or its own zone save, OBX-3), is fetched from scratch with the other devices' \
            records (or none) and no deletion, and no send of this device fails with \
            `zoneNotFound` (they go to the zone created again): OBX-25 never restores it on this \
            device, and its models uploaded before the deletion stay on it only, never sent again, \
            while iCloud and the other devices lack them. (OBX-DR-6 is the same race when this \
            device's own zone save creates the zone again; sds's form is DR-8.)
            """, choice: """
            traced when a fetch from scratch of an owned zone of the account signed in (a nil \
            token: it brings every live record) misses models of the zone whose last known version \
            this device's own save made (nothing pending), brings no record created before the \
            latest time the device knew each model of the zone it misses was there (that model's \
            last version it saved or fetched, or the zone's last fetch with a change token), and \
            OBX-DR-6 is not traced (`fetch.zone-newer-than-missed`, those models under `records`): \
            no record that was in the zone with them is left, as in a zone deleted and created \
            again since. A zone whose every record was deleted or made anew elsewhere since looks \
            the same to the device, which cannot tell (OBXW-10's missed deletions), so the trace \
            over-approximates: most in worlds with many deletions where a device was away long, or \
            in a collection's zone whose only record, its root, was deleted elsewhere. Which \
            versions this device saved and the time of the zone's last fetch with a token are kept \
            in memory: after a kill the earlier uploads are not known, and not traced.
            """, explains: ["convergence", "lost-change"]),
    ]
}
