// Generated from docs/MIRROR.md by `swift run catalogue-gen`; do not edit.
import SyncContract

extension MirrorRules {
    /// The groups of docs/MIRROR.md, in page order, with the title of their section.
    static let groupTitles: [(group: String, title: String)] = [
        ("MIR", "what the mirroring does"),
        ("MIRW", "the weaknesses (races and losses the mirroring does not resolve)"),
        ("MIR-DR", "discovered races (found by the explorer, not in the catalogue)"),
    ]

    /// Every rule of docs/MIRROR.md's groups, in page order.
    static let rules: [Rule] = [
        Rule(id: "MIR-1", group: "MIR", text: """
            When the store loads, the model is validated; any violation fails the load with \
            NSCocoaErrorDomain code 134060, whose failure reason lists each failing section (a \
            header, then one line per offending item, sorted case-insensitively) in Apple's order \
            and wording.
            """, choice: """
            the estimated record size counts fixed-size values only (a String or Data value too \
            large for the record goes into an asset, MIR-23), so section 6 cannot arise from a \
            scenario; the test of the exact text builds the model directly.
            """),
        Rule(id: "MIR-2", group: "MIR", text: """
            If the store fails to load, nothing synchronizes on that device: it stays in state \
            `error(storeLoadFailed)`, the MIR-1 text is in the trace, and every local action there \
            fails.
            """, choice: """
            the seed's `try!` would crash the app; SyncLab keeps the device running so that a \
            scenario can show the failure: each local action there (`insert`, `update`, `delete`, \
            `save`, `sync`, …) is traced as `action.failed` and changes nothing, and the run goes \
            on. `synclab check` warns at each offending entity and property when the file runs on \
            `mirror`, and other engines run the same file.
            """),
        Rule(id: "MIR-3", group: "MIR", text: """
            The scenario schema maps onto MIR-1's checks: `identity(a, b)` is a unique constraint, \
            a `sync none` entity is outside the CloudKit configuration, `deny` is an unsupported \
            delete rule, and a relationship neither side declares an inverse for has none.
            """, choice: """
            `sync only(…)`/`sync except(…)` mean nothing: every property of a mirrored entity is \
            mirrored. A to-one relationship is always optional and a to-many counts as optional, \
            and nothing is ordered, so sections 2 and 4 cannot arise from a scenario.
            """),
        Rule(id: "MIR-4", group: "MIR", text: """
            Everything lives in zone `com.apple.coredata.cloudkit.zone` of the private database: \
            record type `CD_<Entity>`, field `CD_<attribute>` plus `CD_entityName`, a to-one \
            relationship as field `CD_<relationship>` holding the target's record name as a \
            string, and a random UUID as the record name.
            """, choice: """
            to-many relationships are the inverses of to-one relationships and are not fields; the \
            UUID comes from the device's seeded name stream, and is given (and written) when the \
            object's save is seen, so an export writes nothing before its request leaves.
            """),
        Rule(id: "MIR-5", group: "MIR", text: """
            Setup creates the zone and a database subscription; its progress is reported as events \
            of type setup, import and export.
            """, choice: """
            setup asks the account status, then the user record name (MIR-20), then creates the \
            zone and the subscription when the metadata says they are not set up yet.
            """),
        Rule(id: "MIR-6", group: "MIR", text: """
            Requests (setup, import, export, reset) run one at a time from a queue; a request of a \
            kind already queued is not queued twice.
            """, choice: """
            an account change that comes while a setup's account check is in flight queues a setup \
            of its own behind it; the check's stale answer still acts (no account: MIR-20's reset; \
            restricted or temporarily unavailable: MIR-21's failure) but neither blocks the queue \
            nor empties it, so the deferred setup runs when that request ends, before the import \
            and export queued with it (traced `setup.superseded`).
            """),
        Rule(id: "MIR-7", group: "MIR", text: """
            Every local save is recorded in persistent history and schedules an export 1 s later; \
            saves within that second are coalesced.
            """, choice: """
            the 1 s scheduler delay is SyncLab's.
            """),
        Rule(id: "MIR-8", group: "MIR", text: """
            A push schedules an import 1 s later.
            """, choice: """
            the 1 s delay is SyncLab's.
            """),
        Rule(id: "MIR-9", group: "MIR", text: """
            A launch runs setup, then an import, then an export.
            """),
        Rule(id: "MIR-10", group: "MIR", text: """
            When the network comes back, the queued requests run, with an export if local changes \
            wait; a push missed while offline arrives afterwards and brings an import.
            """, choice: """
            the requests that failed and wait for their retry (MIR-22) are scheduled too: they run \
            at once, before the queued ones, in the launch's order (setup, import, export), and \
            the retry timer is cancelled (`retry.early` with trigger `network`).
            """),
        Rule(id: "MIR-11", group: "MIR", text: """
            The app has no way to force a synchronization: `sync` only waits until the device's \
            queue is empty.
            """, choice: """
            `sync` (and `launch`) also wait for an export or import the scheduler has due; they \
            end at once when the queue cannot drain (offline, no usable account).
            """),
        Rule(id: "MIR-12", group: "MIR", text: """
            An export covers every object changed by transactions the mirroring delegate did not \
            author since the last export: the record gets every attribute and every to-one \
            relationship, deleted objects become record deletes, and records are saved with \
            `.changedKeys`.
            """, choice: """
            every key of the entity is listed as changed (fields and asset fields), so a cleared \
            value is cleared in iCloud; requests are split at 400 items and 1.5 MB of fields, not \
            atomic.
            """),
        Rule(id: "MIR-13", group: "MIR", text: """
            After a successful export, each returned record is archived in the object's metadata, \
            and the last exported transaction advances.
            """),
        Rule(id: "MIR-14", group: "MIR", text: """
            Conflicts are never detected: `.changedKeys` does not compare tags, and every \
            attribute is written, so the export that reaches iCloud last wins every attribute of \
            the record.
            """, choice: """
            [inferred] from MIR-12.
            """),
        Rule(id: "MIR-15", group: "MIR", text: """
            An import works through the changed zone: each fetched record is applied to its object \
            (inserted if new) with every `CD_` field written, relationships resolve by record name \
            or wait for their target, deletions delete, and everything is saved as author \
            `NSCloudKitMirroringDelegateImportContextName` with the zone's token in the same save.
            """, choice: """
            a page is one store save with its token (the metadata lives in the store).
            """),
        Rule(id: "MIR-16", group: "MIR", text: """
            An import overwrites the local values that have not been exported yet; the store has \
            no record of which keys are pending, so the next export sends the imported values and \
            the local edit is lost.
            """, choice: """
            [unverified] Core Data may keep pending keys; SyncLab follows the sources.
            """),
        Rule(id: "MIR-17", group: "MIR", text: """
            A zone deleted by another device resets sync with the reason "ZoneDeleted": its \
            mirrored rows are removed from the device, the zone metadata is reset, and the next \
            setup creates the zone again, empty.
            """, choice: """
            a zone deleted for `encryptedDataReset` resets the same way, with the reason \
            "EncryptedDataReset".
            """),
        Rule(id: "MIR-18", group: "MIR", text: """
            A zone the user purged resets sync with the reason "UserPurgedZone": the zone's local \
            rows are removed, and nothing is uploaded again.
            """, choice: """
            [unverified] the purge option bits; later saves go to a zone created again. After this \
            reset, as after MIR-17's, the setup runs and then an import from scratch: the zone may \
            already hold records again (created again by another device, or by this device's \
            export, when the network came back, of an edit made offline, MIR-10), and they come \
            down, so every device ends with what iCloud holds.
            """),
        Rule(id: "MIR-19", group: "MIR", text: """
            An expired token resets sync with the reason "ServerChangeTokenExpired": the zone's \
            system fields are wiped and its upload state reset, so every local object is exported \
            again, and then imported from scratch.
            """, choice: """
            [unverified] whether the local rows are wiped first; SyncLab exports them again.
            """),
        Rule(id: "MIR-20", group: "MIR", text: """
            The account's user record name is stored, and a change of it resets sync with the \
            reason "AccountLogin", "AccountLogout" or "AccountChange"; after a logout or a change, \
            every mirrored entity's local rows are batch-deleted and the new account's data is \
            imported.
            """, choice: """
            after a login (no stored account, but one before) the rows stay and are exported to \
            the new account.
            """),
        Rule(id: "MIR-21", group: "MIR", text: """
            A restricted or temporarily unavailable account fails setup with code 134400 ("Unable \
            to initialize without a valid iCloud account \
            (CKAccountStatusTemporarilyUnavailable)."); nothing is reset, and setup is tried again \
            when the account changes.
            """, choice: """
            the device shows `waiting(account)` meanwhile.
            """),
        Rule(id: "MIR-22", group: "MIR", text: """
            Failed requests are retried by the system scheduler after their retry-after, or \
            without one after 60 s, and at every launch, push or save; nothing is dropped, since \
            the history remains, for retryable errors, `quotaExceeded` and per-item failures alike.
            """, choice: """
            without a retry-after the delay is 60 s after every failure; a push runs the failed \
            requests again with its import (a save's export and a launch's requests send what \
            failed anyway, since the history remains); the state is `error(CODE)` until a request \
            succeeds (`waiting(network)` and `waiting(retryAfter)` for network errors and \
            throttling).
            """),
        Rule(id: "MIR-23", group: "MIR", text: """
            A String or Data value stays a field as long as the record stays at or under 700,000 \
            bytes; otherwise it is stored as a CKAsset in the field `CD_<attribute>_ckAsset`.
            """, choice: """
            the largest values move first; an `asset` attribute (external storage) is always an \
            asset.
            """),
        Rule(id: "MIR-24", group: "MIR", text: """
            There is no sharing: SwiftData's `ModelConfiguration` offers only automatic, private \
            or no CloudKit database, so `share`, `accept share`, `unshare`, `remove`, `leave`, \
            `stop`, `start` and `reset-sync-data` are refused when the scenario is checked.
            """),
        Rule(id: "MIR-25", group: "MIR", text: """
            There is no identity and no deduplication: uniqueness makes the load fail (MIR-1), and \
            two devices creating the same thing make two records.
            """),
        Rule(id: "MIR-26", group: "MIR", text: """
            `@Query` views do not refresh after an import until the app fetches; this is not \
            modelled, since the store is what the harness reads.
            """),
        Rule(id: "MIR-27", group: "MIR", text: """
            A batch delete is in the persistent history, so it is exported as deletions.
            """, choice: """
            [unverified] SyncLab's store history leaves batch deletes out, so the export also \
            deletes the record of every exported object that is gone from the store without a \
            tombstone; the batch delete reaches the running engine as a change of the store (the \
            remote-change notification), so it is exported about a second later, with no later \
            save needed.
            """),
        Rule(id: "MIR-28", group: "MIR", text: """
            Nothing is lost or repeated on a kill: an export is driven by history, and each \
            imported page and its token are saved together.
            """, choice: """
            the database token is saved with the zone's last page only, so a kill between two \
            pages leaves the zone changed for the next launch, which resumes from the saved zone \
            token; a fetched record whose change tag is the one archived (this device's own \
            export, fetched again from an older zone token) changes nothing, so it cannot \
            overwrite an edit made since; a fetched record whose object was deleted here, its \
            deletion not exported yet (a tombstone in the history, or a batch delete, MIR-27), is \
            not applied, so the object does not come back as a new one that iCloud lacks once the \
            export deletes the record.
            """),
        Rule(id: "MIR-29", group: "MIR", text: """
            `initialize-schema` is `initializeCloudKitSchema()`: in development it creates every \
            `CD_` type and field; when mirroring is turned on over an existing store, the first \
            export uploads every existing object.
            """, choice: """
            the schema is created by saving a sample record of every entity with every field, then \
            deleting them; saves made while nothing observed the store are in the history, so the \
            next export sends them.
            """),
        Rule(id: "MIR-30", group: "MIR", text: """
            Production rejects fields it does not have with `invalidArguments`, and the export is \
            retried forever (MIR-22).
            """, choice: """
            [unverified] K§16 reports production builds silently dropping undeployed fields.
            """),
        Rule(id: "MIRW-1", group: "MIRW", text: """
            Concurrent edits of different keys are not merged: the export that arrives last writes \
            its stale value of the other device's key (MIR-12, MIR-14).
            """, choice: """
            [unverified] traced when a device exports an update that rewrites keys it did not \
            change while it has not imported since it came back online, or since an export of it \
            failed (a full quota, a throttle: the edits of other devices made while its export \
            waited are not known to it); and when it exports again an update whose earlier export \
            of that record failed, imported since or not (a record refused for a while, `reject`: \
            the other devices' exports of it may be held too, so no import brings their edits), \
            the keys that failed export carried counting as changed.
            """, explains: ["lost-change", "convergence"]),
        Rule(id: "MIRW-2", group: "MIRW", text: """
            A device that edits an object offline while another device deletes it creates the \
            whole record again when it reconnects, and the deletion is lost (MIR-10, MIR-12).
            """, explains: ["resurrection", "convergence"]),
        Rule(id: "MIRW-3", group: "MIRW", text: """
            An import that runs before a pending export overwrites the un-exported local edits \
            (MIR-16).
            """, explains: ["lost-change"]),
        Rule(id: "MIRW-4", group: "MIRW", text: """
            Signing out or switching accounts deletes all local data; anything not exported yet is \
            lost (MIR-20).
            """, explains: ["lost-change", "resurrection"]),
        Rule(id: "MIRW-5", group: "MIRW", text: """
            A zone deleted by another device empties every device (MIR-17).
            """, explains: ["lost-change"]),
        Rule(id: "MIRW-6", group: "MIRW", text: """
            After a token expires, records deleted elsewhere come back: every local object is \
            exported again (MIR-19).
            """, choice: """
            [unverified]
            """, explains: ["resurrection", "convergence", "lost-change"]),
        Rule(id: "MIRW-7", group: "MIRW", text: """
            A schema with required attributes, unique constraints, `deny`, ordered relationships \
            or a missing inverse cannot load at all (MIR-1).
            """, explains: ["convergence"]),
        Rule(id: "MIRW-8", group: "MIRW", text: """
            Independent creation makes duplicates, and the app cannot declare uniqueness (MIR-25).
            """, explains: ["duplicate-identity"]),
        Rule(id: "MIRW-9", group: "MIRW", text: """
            There is no sharing (MIR-24).
            """, explains: ["convergence"]),
        Rule(id: "MIRW-10", group: "MIRW", text: """
            Synchronization cannot be forced, so nothing can be promised about when it happens \
            (MIR-7, MIR-11).
            """, explains: ["convergence"]),
        Rule(id: "MIR-DR-1", group: "MIR-DR", text: """
            An object that one device moves or creates inside another one (a relationship whose \
            delete rule cascades) while another device deletes that one without knowing: when the \
            deletion is imported, the store's delete rule deletes the object too, in the import's \
            own save, which is not exported (MIR-15): its values are lost, and its record stays in \
            iCloud and on the other devices until an export of this device deletes it. (LIM-3 and \
            DR-1 are the same race on sds, OBX-DR-1 on outbox.)
            """, choice: """
            traced when an import's save deletes, through a delete rule, objects whose own \
            deletion the page did not bring (`import.cascade-deleted`).
            """, explains: ["convergence", "lost-change"]),
        Rule(id: "MIR-DR-2", group: "MIR-DR", text: """
            An object saved after the user purged the zone, before the device learned of the \
            purge, is deleted by the purge's reset (MIR-18): the rows of the zone are removed, the \
            new object with them, though the user made it after asking for the purge; it never \
            reaches iCloud.
            """, choice: """
            traced when a purge's reset removes objects whose changes were not exported yet \
            (`reset.unexported-removed`): the device cannot tell which of them were made after the \
            purge.
            """, explains: ["lost-change", "convergence"]),
        Rule(id: "MIR-DR-3", group: "MIR-DR", text: """
            An account switch and back that no setup's check sees (the device is back on the first \
            account before the account check of the switch runs or answers) resets nothing \
            (MIR-20): an object saved while the device was signed into the other account is \
            exported into the first one, and the account it was made in never gets it.
            """, choice: """
            traced with MIR-20 when a setup's check finds the stored user record unchanged (or \
            none stored yet) while the app saved, since the launch or the last completed setup, \
            under another account than the one it was for (`setup.switch-unseen`); a switch the \
            check sees resets sync (MIRW-4).
            """, explains: ["lost-change"], workaround: """
            'settle' after an account switch before saving, so that the check sees the switch and \
            resets
            """),
    ]
}
