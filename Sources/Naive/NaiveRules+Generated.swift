// Generated from docs/NAIVE.md by `swift run catalogue-gen`; do not edit.
import SyncContract

extension NaiveRules {
    /// The groups of docs/NAIVE.md, in page order, with the title of their section.
    static let groupTitles: [(group: String, title: String)] = [
        ("NAIVE", "what the engine does"),
        ("NAIVEW", "the weaknesses (races and losses the engine does not resolve)"),
        ("NAIVE-DR", "discovered races (found by the explorer, not in the catalogue)"),
    ]

    /// Every rule of docs/NAIVE.md's groups, in page order.
    static let rules: [Rule] = [
        Rule(id: "NAIVE-1", group: "NAIVE", text: """
            Each model is one record named `<Entity>_<UUID>`, whose record type is the entity name \
            and whose fields are the attributes of the same name; relationships are not \
            synchronized.
            """, choice: """
            the UUID is drawn from the device's seeded name stream in CloudKit's upper-case form \
            and kept on disk as the model's `id`, written together with the save that names it; a \
            model named by a download keeps the UUID of its record name.
            asset properties are plain data fields (NAIVE-13); unsynchronized properties (`sync \
            only`/`except`) are left out of the record.
            """),
        Rule(id: "NAIVE-2", group: "NAIVE", text: """
            At launch the app fetches its zone `Notes` and creates it if the answer is \
            `zoneNotFound`; it never checks the zone again before the next launch.
            """, choice: """
            the launch runs its steps one after the other, each when the previous answered: the \
            zone, then the subscriptions, then the download (NAIVE-7); a step that fails is logged \
            (NAIVE-6) and the next one runs. Saves do not wait for the setup (NAIVE-5): one that \
            reaches iCloud before the launch has found or created the zone fails with \
            `zoneNotFound` and is dropped (NAIVE-6), traced with this rule and NAIVE-DR-1, since \
            no zone was deleted (not NAIVEW-11).
            """),
        Rule(id: "NAIVE-3", group: "NAIVE", text: """
            At launch there is one `CKQuerySubscription` per entity (predicate `true`, firing on \
            creation, update and deletion, `shouldSendContentAvailable`), created when \
            `fetch(withSubscriptionID:)` answers `unknownItem`.
            """, choice: """
            the subscription of entity `Note` has the ID `note-changes-subscription` (the \
            article's), of any entity `<entity in lower case>-changes-subscription`; entities are \
            set up in the schema's order.
            """),
        Rule(id: "NAIVE-4", group: "NAIVE", text: """
            After every save of the app, each inserted or updated model is saved as a freshly \
            built record holding every attribute, with `CKModifyRecordsOperation` and `savePolicy \
            = .allKeys`; a deleted model's record is deleted.
            """, choice: """
            the record carries every synchronized attribute that has a value and no change tag; \
            the keys the app changed in the save are sent as changed, so a value the app cleared \
            is cleared in iCloud (every attribute for an insert).
            """),
        Rule(id: "NAIVE-5", group: "NAIVE", text: """
            Saves are fire-and-forget: each record is its own request, sent at once with no \
            debounce and no batching, nothing about it is written to disk, and its completion only \
            prints.
            """, choice: """
            a save of several models is one operation per model, in the order of the save's \
            history.
            every operation starts the moment it is created and runs alongside the others, as the \
            article's calls do: a save made while another operation runs is sent at once, so of \
            two requests the one that arrives last wins, and a kill loses a save only before its \
            request leaves (NAIVEW-2); a retry that came due is sent at once too (NAIVE-6); the \
            probe points of operations that overlap interleave on the device, each operation \
            passing its own in the contract's order; the launch's zone and subscription steps run \
            one after the other (NAIVE-2), alongside any save, before the launch's download.
            """),
        Rule(id: "NAIVE-6", group: "NAIVE", text: """
            Every failed request goes through the article's `handleCloudKitError`: `zoneBusy`, \
            `serviceUnavailable` and `requestRateLimited` repeat the same operation, with the \
            values it captured, after the retry-after (3 s if none), without bound and in memory \
            only; every other code is printed and dropped.
            """, choice: """
            a save's error is its record's own error (each request holds one record, so a per-item \
            error is what the completion sees, never `partialFailure`); a download's error is the \
            failed request's.
            """),
        Rule(id: "NAIVE-7", group: "NAIVE", text: """
            A push and every launch run `fetchDatabaseChanges` from the one persisted token with \
            `fetchAllChanges`; for each changed zone the app starts a zone fetch without waiting \
            for it, and the token is persisted before the zone fetches finish.
            """, choice: """
            pushes come from the query subscriptions only (the app saves no database \
            subscription), so every push is a `.query` notification; the changed zones are fetched \
            one after the other within the operation; `launch` ends for the script when the \
            launch's download operation ends, after its `sync.done` (the zone fetches included; a \
            retry is waited for).
            """),
        Rule(id: "NAIVE-8", group: "NAIVE", text: """
            A zone fetch starts from a nil token, since only one token is kept, and follows every \
            page; each record converted by `init?(record:)` overwrites every attribute of the \
            local model found by the UUID in its record name, or is inserted; a record lacking a \
            required attribute converts to nil and is skipped; a nil-token fetch brings no \
            deletions.
            """, choice: """
            a required attribute is one that is neither optional nor defaulted; a missing \
            defaulted attribute takes its default, a missing optional one is cleared; a field of \
            the wrong type counts as missing, and so does a required attribute the device's app \
            version does not synchronize (`syncs`: its `init?(record:)` never reads it), so such a \
            record is skipped rather than refused with the rest of its page. A page is written to \
            the store in one save (author `naive`).
            """),
        Rule(id: "NAIVE-9", group: "NAIVE", text: """
            A zone deletion reported by the database changes is only printed; the local data is \
            kept.
            """),
        Rule(id: "NAIVE-10", group: "NAIVE", text: """
            `sync` (Sync Now) runs the launch path's download: `fetchDatabaseChanges`.
            """, choice: """
            the article has no such call; the script's `sync` waits like `launch`, until the \
            download operation ends, after its `sync.done`.
            """),
        Rule(id: "NAIVE-11", group: "NAIVE", text: """
            A failed `fetchDatabaseChanges` goes to NAIVE-6; `changeTokenExpired` is not handled \
            there, so the token is never cleared and every later fetch fails the same way.
            """),
        Rule(id: "NAIVE-12", group: "NAIVE", text: """
            The app neither checks `accountStatus` nor observes account changes: after a switch, \
            saves go to the new account (whose zone is created only at the next launch) and the \
            old account's database token is refused as `changeTokenExpired` (NAIVE-11).
            """),
        Rule(id: "NAIVE-13", group: "NAIVE", text: """
            There is no sharing, no identity, no asset and no handling of the schema: an identity \
            is ignored (a random record name), a value over 1 MB fails with `limitExceeded` and is \
            dropped (NAIVE-6).
            """, choice: """
            the sharing statements and `stop`, `start`, `reset-sync-data` and `initialize-schema` \
            are refused when a scenario is read, naming the engine; `sync` is NAIVE-10.
            """),
        Rule(id: "NAIVE-14", group: "NAIVE", text: """
            Models written by a download are not uploaded again, since only the app's own saves \
            call `saveNote`; nothing records pending changes, so a kill forgets every operation in \
            flight or waiting for a retry.
            """, choice: """
            at launch the engine starts reading the app's saves after the store's newest history \
            entry, so a save made before a kill that did not reach iCloud is never sent; saves \
            made while nothing observed the store are never sent either, until the model is saved \
            again.
            """),
        Rule(id: "NAIVEW-1", group: "NAIVEW", text: """
            Lost update: every save writes every field (`.allKeys`), so of two concurrent edits of \
            different keys, the later save wins the whole record (NAIVE-4).
            """, choice: """
            traced by the cloud (note `record.overwritten`, docs/CLOUDSIM.md) when an `allKeys` \
            save writes, over a different value in iCloud, a key the app did not change in that \
            save.
            """, explains: ["lost-change"]),
        Rule(id: "NAIVEW-2", group: "NAIVEW", text: """
            A kill before the request leaves the device loses the save for good, and nothing \
            remembers it (NAIVE-5, NAIVE-14).
            """, choice: """
            traced at the next launch from the diagnostic ledger, naming the records whose \
            operations never left (also those waiting for a retry).
            """, explains: ["convergence", "lost-change"]),
        Rule(id: "NAIVEW-3", group: "NAIVEW", text: """
            A save made offline fails with `networkUnavailable` and is dropped (NAIVE-6); the next \
            download then overwrites the local edit with iCloud's value (NAIVE-8): a silent revert.
            """, choice: """
            traced when a save is dropped for a network error, and again when a download \
            overwrites the values of such a dropped save.
            """, explains: ["convergence", "lost-change", "resurrection"]),
        Rule(id: "NAIVEW-4", group: "NAIVEW", text: """
            A throttled save is retried with the values captured at the time (NAIVE-6): if a newer \
            save of the same record succeeded in between, the retry overwrites it with the older \
            values.
            """, choice: """
            traced when a retry of a save leaves after a newer save of the same record succeeded.
            """, explains: ["convergence", "lost-change"]),
        Rule(id: "NAIVEW-5", group: "NAIVEW", text: """
            Deletions made by other devices never arrive, since nil-token fetches carry no \
            tombstones (NAIVE-8): deleted models stay forever.
            """, choice: """
            traced at the end of a complete zone fetch for the local models it did not bring (once \
            per model and launch: those whose record this launch saw in iCloud were deleted \
            elsewhere, the others may also never have been uploaded), and when a save of a model \
            that had its record creates the record again in full (the deletion made elsewhere \
            never arrived).
            """, explains: ["convergence", "resurrection"]),
        Rule(id: "NAIVEW-6", group: "NAIVEW", text: """
            The database token is saved before the zone fetch ends (NAIVE-7): a kill or a failure \
            in between hides the zone's changes until the zone changes again.
            """, choice: """
            traced when a zone fetch fails after its token was saved, and at the next launch for a \
            zone fetch a kill interrupted (diagnostic ledger).
            """, explains: ["convergence", "lost-change"]),
        Rule(id: "NAIVEW-7", group: "NAIVEW", text: """
            After a token expires or the account switches, downloads stop forever (NAIVE-11, \
            NAIVE-12).
            """, choice: """
            traced each time `fetchDatabaseChanges` fails with `changeTokenExpired`.
            """, explains: ["convergence", "lost-change"]),
        Rule(id: "NAIVEW-8", group: "NAIVEW", text: """
            A dropped push means no download until the next push or launch: there is no polling \
            (NAIVE-7).
            """, choice: """
            traced when a download started by `sync` (NAIVE-10) brings changes that other devices \
            made while this device was running and online, after its previous download began: \
            their push never started one.
            """, explains: ["convergence"]),
        Rule(id: "NAIVEW-9", group: "NAIVEW", text: """
            A full quota, a too-large record or a permission error is dropped, with no state to \
            show for it (NAIVE-6).
            """, choice: """
            traced when a save is dropped for `quotaExceeded`, `limitExceeded` or \
            `permissionFailure`; also for every other error the article drops that no other rule \
            names (`notAuthenticated` while signed out, `zoneNotFound` after a switch to an \
            account whose zone the app never created (NAIVE-12), `accountTemporarilyUnavailable`, \
            `serverRejectedRequest`, …): each is the same drop with nothing to show for it, and no \
            later save or launch sends the values again.
            """, explains: ["convergence", "lost-change", "resurrection"]),
        Rule(id: "NAIVEW-10", group: "NAIVEW", text: """
            Every push downloads every record again (NAIVE-8), which also brings back models \
            batch-deleted on this device.
            """, choice: """
            traced when a download inserts a model for a record this device had a model of, which \
            is gone from the store without a deletion the app saved (batch-deleted).
            """, explains: ["convergence", "resurrection"]),
        Rule(id: "NAIVEW-11", group: "NAIVEW", text: """
            If another device deletes the zone, iCloud stays empty while the devices keep their \
            data: saves fail with `zoneNotFound` until a relaunch creates the zone again, and the \
            old data is never uploaded again (NAIVE-2, NAIVE-9).
            """, choice: """
            traced when a save is dropped for `zoneNotFound` after this launch found or created \
            the zone, and when a launch creates the zone again while the store holds models named \
            before this launch; also when a save is dropped for `userDeletedZone`: after the user \
            purged the zone, iCloud stays empty while the devices keep their data in the same way, \
            and since a launch finds the zone purged, not missing, no relaunch creates it again \
            (story 13).
            """, explains: ["convergence", "lost-change"]),
        Rule(id: "NAIVEW-12", group: "NAIVEW", text: """
            Independent creation makes duplicates (NAIVE-13).
            """, choice: """
            traced when a download inserts a model whose identity values (`identity(…)`, which \
            naive ignores) equal those of another local model, or of a model the same page \
            inserted before it.
            """, explains: ["duplicate-identity"]),
        Rule(id: "NAIVE-DR-1", group: "NAIVE-DR", text: """
            A save sent before the launch's setup has found or created the zone (the first launch \
            on an account, or a device that saves at once) reaches iCloud before the zone exists, \
            fails with `zoneNotFound` and is dropped (NAIVE-2, NAIVE-5, NAIVE-6): the model stays \
            on that device only, and its values reach iCloud only if it is edited again.
            """, choice: """
            traced with NAIVE-2 when such a save is dropped (no zone was deleted: not NAIVEW-11).
            """, explains: ["convergence", "lost-change"], workaround: """
            'settle' before the first save, so that the launch creates the zone first
            """),
        Rule(id: "NAIVE-DR-2", group: "NAIVE-DR", text: """
            Two saves of one record in flight at once (an edit made while the previous save's \
            request is on its way, or two retries that came due together) can reach iCloud in the \
            other order (NAIVE-5, NAIVE-6): the older values, saved with `allKeys` (NAIVE-4), \
            overwrite the newer ones in iCloud, and the next download brings them back to the \
            device that made the newer edit. The same holds for a save and a later deletion of its \
            record: a save still on its way or waiting for a retry that reaches iCloud after the \
            deletion creates the record again, in full, and the next download brings the deleted \
            model back.
            """, choice: """
            traced at the second of the two answers, when the order in which iCloud applied the \
            saves (the modification time of the record each answer carries) is the reverse of the \
            order the app made them; a save whose answer is lost or failed is not compared, and a \
            retry NAIVEW-4 names (it left after the newer save had succeeded) is not named again. \
            For a deletion, traced at the answer of an older save of its record that iCloud \
            applied after the deletion's answer had come (`save.applied-after-deletion`); a \
            deletion's answer carries no time, so a save applied between the deletion's arrival \
            and its answer is not named.
            """, explains: ["convergence", "lost-change", "resurrection"], workaround: """
            'settle' between two edits of one record, so that the second save leaves after the \
            first is answered
            """),
        Rule(id: "NAIVE-DR-3", group: "NAIVE-DR", text: """
            A download that comes while a save of the same record is still on its way stores \
            iCloud's older values over the edit (NAIVE-8 overwrites every attribute, and nothing \
            remembers the save in flight, NAIVE-5); the save then reaches iCloud, but the device \
            that made it gets no push for its own change, so it keeps the older values until a \
            later download.
            """, choice: """
            traced when a download page changes a key of a local model back from the value a save \
            of its record still in memory (in flight or waiting for a retry) captured, to another \
            value.
            """, explains: ["convergence", "lost-change"], workaround: """
            'settle' after an edit before a 'sync', so that no download runs while its save is in \
            flight
            """),
        Rule(id: "NAIVE-DR-4", group: "NAIVE-DR", text: """
            A deletion still on its way while a zone fetch reads the zone reaches iCloud after the \
            fetch (NAIVE-5, NAIVE-7): the page still carries the record, NAIVE-8 inserts it again \
            since its model is gone and the deletion forgot its name, and the deletion then \
            succeeds, so iCloud lacks the record while the device that deleted it holds it again \
            for good (a nil-token fetch brings no tombstones, NAIVEW-5).
            """, choice: """
            traced with NAIVE-8 when a download page inserts a model for a record whose model the \
            app deleted this launch, with the deletion still unanswered when the zone fetch that \
            brought the page began (a dropped deletion is NAIVEW-3's or NAIVEW-9's).
            """, explains: ["convergence", "resurrection"], workaround: """
            'settle' after a deletion before a 'sync', so that no zone fetch runs while the \
            deletion is on its way
            """),
    ]

    /// The rules of the section `NAIVE-D` of docs/NAIVE.md.
    static let literalRules: [Rule] = [
        Rule(id: "NAIVE-15", group: "NAIVE", text: """
            `CKRecord.ID(recordName:)` names no zone, so every record goes to `_defaultZone`; \
            database changes never report that zone, and database subscriptions never cover it, so \
            nothing is ever fetched.
            """, explains: ["convergence", "lost-change"]),
        Rule(id: "NAIVE-16", group: "NAIVE", text: """
            `fetchRecordChanges(in:)` is a stub: a zone the database changes report is only logged.
            """),
        Rule(id: "NAIVE-17", group: "NAIVE", text: """
            `save(_:)` of a freshly built record follows `ifServerRecordUnchanged`: every save \
            after a record's first fails with `serverRecordChanged` ("record to insert already \
            exists"), so edits never reach iCloud.
            """, explains: ["convergence", "lost-change"]),
        Rule(id: "NAIVE-18", group: "NAIVE", text: """
            The article has no delete call: deletions never reach iCloud.
            """, explains: ["convergence", "resurrection"]),
    ]
}
