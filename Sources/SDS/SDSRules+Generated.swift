// Generated from docs/RULES.md by `swift run catalogue-gen`; do not edit.
import SyncContract

extension SDSRules {
    /// The groups of docs/RULES.md, in page order, with the title of their section.
    static let groupTitles: [(group: String, title: String)] = [
        ("SYNC", "how a synchronization runs"),
        ("DL", "downloads"),
        ("HDO", "hasDownloadedOnce"),
        ("ADOPT", "models the synchronizer did not see being saved"),
        ("DEL", "deletions"),
        ("SCHEMA", "record types, fields and rejected records"),
        ("EXT", "app groups and extensions"),
        ("LIFE", "turning synchronizing off and on"),
        ("ACCT", "iCloud accounts"),
        ("ERR", "zone loss, throttling, quota, rejection"),
        ("BIG", "large values"),
        ("CFG", "configuration"),
        ("ID", "entities with an identity"),
        ("LIM", "the known limitations (races the engine does not resolve)"),
        ("DR", "discovered races (found by the explorer, not in the seed)"),
    ]

    /// Every rule of docs/RULES.md's groups, in page order.
    static let rules: [Rule] = [
        Rule(id: "SYNC-1", group: "SYNC", text: """
            Saves of the observed store are recorded as pending changes (per model, per key) and \
            synchronized shortly after the save (a short debounce, not at once).
            """, choice: """
            the debounce is 500 ms of simulated time; a save while a synchronization has not \
            started uploading is included in that synchronization's upload.
            """),
        Rule(id: "SYNC-2", group: "SYNC", text: """
            Every synchronization downloads first, then uploads.
            """),
        Rule(id: "SYNC-3", group: "SYNC", text: """
            An edit of a model whose deletion arrives in the download is discarded with the \
            deletion; it is not uploaded as a partial record.
            """, exempts: ["lost-change"]),
        Rule(id: "SYNC-4", group: "SYNC", text: """
            Local changes that were not uploaded yet win over downloaded values of the same keys; \
            downloaded values of other keys are applied.
            """, choice: """
            a save whose answer never arrived (the app was killed between the upload and its \
            answer, or the answer was lost) may have been applied, so the keys it carried are \
            remembered on disk with the change tag the save was made on; when a download brings \
            the record with another change tag, those keys count as uploaded (unless edited again \
            since) and the downloaded values win for them, instead of the old values being sent \
            again over newer saves; a record still at that change tag did not get the save, which \
            is uploaded again, and so did a key of a record that this device saved last and that \
            lacks the value sent (an earlier send of the record landed, not the later one that \
            carried that value: it stays pending). A record saved last by another device counts \
            the keys as uploaded whatever its values (that device may have saved over the value \
            sent; DR-9 when the save never landed). A downloaded deletion of the record of such an \
            insert deletes the model (iCloud created the record, and another device deleted it \
            since). A later send of it that iCloud answers with an error leaves that memory as it \
            was (only that send was refused).
            """),
        Rule(id: "SYNC-5", group: "SYNC", text: """
            A model created on this device keeps its record: a downloaded deletion of a record \
            with the same identity that was deleted before this model was created does not delete \
            it (unsubscribe, subscribe again).
            """),
        Rule(id: "SYNC-6", group: "SYNC", text: """
            If the download fails, the changes are uploaded anyway, but edits only of records that \
            still exist in iCloud (an edit never recreates a record that is gone).
            """),
        Rule(id: "SYNC-7", group: "SYNC", text: """
            While every record is downloaded again (full re-download, e.g. after a reset), nothing \
            is uploaded until every record was downloaded, also if single records failed, for up \
            to three downloads; then uploads resume.
            """, choice: """
            Records kept aside at the end of the download (DL-3, DL-4) mean not every record was \
            downloaded: uploads stay held, the next downloads go on from the saved token and retry \
            what was kept aside, and the third download (failed downloads count) releases uploads \
            whatever is still aside (trace `full-download.incomplete`). No extra sync is \
            scheduled: the next sync, as a save or a push starts one, is the next download; \
            `hasDownloadedOnce` waits for the release.
            """),
        Rule(id: "DL-1", group: "DL", text: """
            Downloads are saved page by page, each page together with its change token, atomically.
            """, choice: """
            probe points `download.page.stored` (records saved) and `download.page.saved` (token \
            saved) are two steps; a kill between them re-downloads the page.
            """),
        Rule(id: "DL-2", group: "DL", text: """
            A long download that is interrupted (suspended, terminated) continues where it was at \
            the next sync; it does not start over, and it does not keep every record in memory.
            """),
        Rule(id: "DL-3", group: "DL", text: """
            A record that cannot be stored yet (it references a record not downloaded yet) or that \
            failed to download is kept aside next to the sync data and tried again later; it does \
            not block the download.
            """),
        Rule(id: "DL-4", group: "DL", text: """
            A record the store rejects (its values are invalid for the model) is kept aside the \
            same way instead of stopping downloads and uploads.
            """),
        Rule(id: "DL-5", group: "DL", text: """
            A page whose save was interrupted (force-quit mid-save) is repaired at the next \
            launch, which continues the download where it was.
            """),
        Rule(id: "HDO-1", group: "HDO", text: """
            `hasDownloadedOnce` is true once the user's data was downloaded completely at least \
            once with the current account.
            """),
        Rule(id: "HDO-2", group: "HDO", text: """
            After each launch it is false until the account was checked; after an account change, \
            false until checked again.
            """),
        Rule(id: "HDO-3", group: "HDO", text: """
            It is false after `resetSyncData()`, and after the store's objects vanished (store \
            lost or rebuilt), until every record was downloaded again. An interrupted download \
            does not count.
            """),
        Rule(id: "ADOPT-1", group: "ADOPT", text: """
            The first synchronization after setup looks for models without records (saved before \
            setup, before adoption, or by a process without the synchronizer) and queues them; so \
            does an account switch and a missing zone, with every model.
            """),
        Rule(id: "ADOPT-2", group: "ADOPT", text: """
            Such models never overwrite iCloud: if a record of the same name exists, the record \
            wins completely, also over values it lacks. Only models whose records do not exist are \
            uploaded with their values.
            """, exempts: ["lost-change"]),
        Rule(id: "ADOPT-3", group: "ADOPT", text: """
            If such a model is edited before it is uploaded, the edited keys are uploaded like any \
            change.
            """),
        Rule(id: "ADOPT-4", group: "ADOPT", text: """
            When the sync data is new while the store already has models (a device that never \
            synchronized), every record is downloaded first, and models without an identity are \
            given the records whose values they have (value matching) instead of being uploaded as \
            duplicates.
            """, exempts: ["lost-change"]),
        Rule(id: "DEL-1", group: "DEL", text: """
            A deletion is recorded only when a model is deleted through a context and the deletion \
            is saved; a deletion discarded before saving (rollback) is never uploaded.
            """),
        Rule(id: "DEL-2", group: "DEL", text: """
            Batch deletes change the store directly: their records stay in iCloud. Models whose \
            records are known but that are gone from the store are not taken for deletions; \
            instead every record is downloaded again at the next launch's first synchronization \
            (so batch-deleted models come back).
            """, exempts: ["lost-change", "resurrection"]),
        Rule(id: "DEL-3", group: "DEL", text: """
            When the store was rebuilt with the same data, its models of entities without an \
            identity are given the records whose values they have; only those without such a \
            record are uploaded, once everything was downloaded.
            """, exempts: ["lost-change", "resurrection"]),
        Rule(id: "SCHEMA-1", group: "SCHEMA", text: """
            Each synchronized entity is a record type; each synchronized property is a field; \
            large values may use the asset field `SDSOverflow`.
            """),
        Rule(id: "SCHEMA-2", group: "SCHEMA", text: """
            The production environment rejects record types and fields it does not have; the \
            development environment creates them on first save, but only the fields that are saved \
            with a value.
            """),
        Rule(id: "SCHEMA-3", group: "SCHEMA", text: """
            `initializeSchema()` saves one record of every synchronized entity with every field \
            set, in a zone of its own that it deletes again, so other devices never see those \
            records.
            """),
        Rule(id: "SCHEMA-4", group: "SCHEMA", text: """
            Records CloudKit rejects are set aside for an hour or until they change; meanwhile the \
            state is an error whose `isIncompleteUpload` is true and that carries CloudKit's \
            error. `forceDownload()` retries them at once.
            """),
        Rule(id: "EXT-1", group: "EXT", text: """
            With an app group, the sync data lives in the group and is shared by the app and its \
            extensions; data an earlier version kept in the app's own container is moved there.
            """),
        Rule(id: "EXT-2", group: "EXT", text: """
            An extension may synchronize fewer models or keys than the app: the records and \
            deletions it skips are downloaded again by the app.
            """),
        Rule(id: "EXT-3", group: "EXT", text: """
            A version of the app that stops synchronizing a model or key catches up on it once a \
            later version synchronizes it again.
            """),
        Rule(id: "LIFE-1", group: "LIFE", text: """
            `stop()`: nothing is uploaded or downloaded, pushes and scheduled retries are ignored, \
            a running download stops after its current page, the state becomes stopped. Local \
            changes are still recorded, and `start()` uploads them.
            """),
        Rule(id: "LIFE-2", group: "LIFE", text: """
            `resetSyncData()` forgets everything stored about iCloud's data (which models have \
            records, pending changes, change tokens, hasDownloadedOnce); iCloud's data stays. \
            Synchronizing stops; the next `start()` downloads everything and uploads the local \
            models iCloud does not have, like a new device.
            """, exempts: ["lost-change", "resurrection"]),
        Rule(id: "LIFE-3", group: "LIFE", text: """
            During that re-download, local models without an identity (or without all its values) \
            are first matched with records that have their values; a model whose changes were not \
            uploaded yet does not match, and becomes another record.
            """),
        Rule(id: "LIFE-4", group: "LIFE", text: """
            A reset removes local copies of other users' shares; they are downloaded again.
            """),
        Rule(id: "LIFE-5", group: "LIFE", text: """
            Changes made in `beforeForgetting` (which runs once no synchronization runs) are not \
            recorded, so they are never uploaded.
            """, exempts: ["lost-change"]),
        Rule(id: "LIFE-6", group: "LIFE", text: """
            If the data cannot be forgotten (e.g. disk full) the reset throws, the data stays as \
            it is (apart from share copies already removed, downloaded again after a later \
            successful reset), and synchronizing stays stopped until `start()`.
            """),
        Rule(id: "ACCT-1", group: "ACCT", text: """
            Signing out and back into the same account keeps the changes made meanwhile and \
            uploads only those.
            """),
        Rule(id: "ACCT-2", group: "ACCT", text: """
            While the account is temporarily unavailable nothing is reset.
            """),
        Rule(id: "ACCT-3", group: "ACCT", text: """
            Signing into another account starts over with it: local models stay; the previous \
            account's pending changes, shares and change tokens are forgotten; local copies of \
            other users' shares are removed; every local model is uploaded to the new account \
            without overwriting its data (ADOPT-2).
            """, exempts: ["lost-change", "resurrection"]),
        Rule(id: "ACCT-4", group: "ACCT", text: """
            Models keep their record names across accounts, so switching back does not duplicate \
            them.
            """),
        Rule(id: "ACCT-5", group: "ACCT", text: """
            A synchronization that runs while the account changes stops.
            """),
        Rule(id: "ERR-1", group: "ERR", text: """
            When the app's zone is missing (deleted by another device) it is created again and \
            every local model is uploaded without overwriting what is in it; also by devices that \
            find it already created again by another one.
            """, exempts: ["lost-change", "resurrection"]),
        Rule(id: "ERR-2", group: "ERR", text: """
            When the user deleted the app's data in iCloud settings (`userDeletedZone`), nothing \
            is uploaded again: synchronizing stops until `start()` or the next launch, and the \
            state shows the error.
            """, exempts: ["lost-change", "convergence", "resurrection"]),
        Rule(id: "ERR-3", group: "ERR", text: """
            When CloudKit asks to wait (throttling, retry-after), the remaining changes are \
            uploaded once the time is up, also when only some records of an upload were throttled.
            """),
        Rule(id: "ERR-4", group: "ERR", text: """
            When iCloud storage is full (`quotaExceeded`), uploads pause for 30 minutes, or until \
            `start()` or `forceDownload()`; pushes do not end the pause; downloads go on; records \
            are not set aside; the state shows the error.
            """),
        Rule(id: "ERR-5", group: "ERR", text: """
            A full storage of a share's owner pauses only uploads to shares.
            """),
        Rule(id: "ERR-6", group: "ERR", text: """
            While uploads are paused for quota, deletions are still uploaded (they free storage), \
            except the deletion of a model that a waiting change moved another model away from \
            (its previous parent): deleting it first would delete the moved model's record too.
            """),
        Rule(id: "ERR-7", group: "ERR", text: """
            Records CloudKit rejects do not keep other changes from being synchronized; they are \
            retried once they change or after an hour, and the state shows an error until then; \
            deletions of models they moved other models away from wait for them.
            """),
        Rule(id: "BIG-1", group: "BIG", text: """
            A record holds at most 1 MB, not counting assets. Properties declared as asset \
            properties are always stored as assets.
            """, choice: """
            a save iCloud rejects as too large (`limitExceeded`) although it has changed texts or \
            data that could move is planned once more in the same synchronization on top of the \
            record fetched from iCloud; a record that still does not fit (e.g. an identity value \
            over 1 MB) is set aside like any rejected record (SCHEMA-4).
            """),
        Rule(id: "BIG-2", group: "BIG", text: """
            Other texts and data that would make the record too large, or any single value of 256 \
            KB or more, are uploaded in the asset field `SDSOverflow` instead of their own fields; \
            other devices read them like any other value.
            """, choice: """
            a single text or data value of 262,144 bytes (256 KB) or more goes into the asset; \
            then, while the record would hold more than 1,048,576 bytes (counted as CloudKit \
            counts: each field's key and value, an asset as its key only), the largest changed \
            text or data value moves into the asset (equal sizes: the first key in alphabetical \
            order), until the rest fits.
            other devices read the asset's values as if they were fields; a field that holds a \
            value wins over an entry of the same key in the asset, since an upload that moves a \
            value into the asset clears its field in the same save.
            """),
        Rule(id: "BIG-3", group: "BIG", text: """
            Uploads send only the values that changed. A record whose overflow asset is involved \
            is uploaded on top of the record in iCloud, so values other devices put into the asset \
            stay, and unchanged values stay where they are.
            """, choice: """
            the asset is involved when a changed value goes into it or a changed key is in it (as \
            this device last saw the record); the upload then first fetches the record \
            (`fetchRecords`), merges its changed keys into the fetched asset, and saves the asset \
            with the changed fields under `changedKeys`; a new record with a random name is not \
            fetched. The fetch is one of the upload's requests: it passes `upload.sent` and \
            `upload.done` too.
            """),
        Rule(id: "BIG-4", group: "BIG", text: """
            A changed value goes into the asset if it is large or does not fit next to the others, \
            and out of it once it fits again.
            """),
        Rule(id: "BIG-5", group: "BIG", text: """
            Only records that need the overflow field, or had it, get it; identity values are \
            never moved into the asset.
            """, choice: """
            a record keeps the `SDSOverflow` field once it had it, holding an empty asset when \
            every value left it; records that never needed it never get the field.
            """),
        Rule(id: "CFG-1", group: "CFG", text: """
            Entities and properties are synchronized by an include list or an exclude list, or not \
            at all.
            """),
        Rule(id: "CFG-2", group: "CFG", text: """
            Properties that are not synchronized must be optional or have a default value \
            (downloaded models only have synchronized values); a configuration that breaks this is \
            rejected with a clear error.
            """, choice: """
            checked when a scenario is read: breaking it is an input error naming the rule (exit \
            2), so no run can make it fire; `synclab rules --check` counts it as enforced at \
            input, and the scenario parser's tests cover it.
            """),
        Rule(id: "CFG-3", group: "CFG", text: """
            Records leave out empty values: clearing an optional value reaches other devices as \
            the record leaving out its key.
            """),
        Rule(id: "ID-1", group: "ID", text: """
            The record of a model with all its identity values is named `<Entity>.<SHA-256 of the \
            identity values>`, the same on every device; strings, integers, doubles, booleans, \
            dates (to the millisecond), UUIDs, URLs and data can be identity values. A model \
            lacking any identity value gets a random record name.
            """, choice: """
            a model made with the identity of a model deleted on this device whose deletion is not \
            uploaded yet (deleted and made again, offline say) has that record's name too: its \
            save waits for the deletion, which goes first, and is made in the same synchronization \
            once the deletion is answered (a record saved and deleted in one request would be \
            deleted).
            """),
        Rule(id: "ID-2", group: "ID", text: """
            A downloaded record whose name is not known yet is first matched to a saved local \
            model with the same identity values; the model gets the record and its values instead \
            of a duplicate being inserted.
            """),
        Rule(id: "ID-3", group: "ID", text: """
            When another device uploaded the same identity first, the upload saves the changed \
            keys over its record; the last upload of a key wins. Models saved before synchronizing \
            started are the exception: the record's values win (ADOPT-2).
            """),
        Rule(id: "ID-4", group: "ID", text: """
            Changing an identity value deletes the record of the old values once the change is \
            saved (unless another model takes those values in the same save) and uploads the model \
            as a new record; records that reference the model are uploaded again so they reference \
            the new record.
            """, choice: """
            a record cannot change zones either: a model whose record is in the app's zone, moved \
            into (under) a record of another user's share, is uploaded there as a new record with \
            every value and without the old record's change tag (trace \
            `upload.record.moved-zone`), and its record in the app's zone is deleted once no \
            change of the model waits (the save in the share's zone answered; \
            `upload.old-zone-record-deleted`); meanwhile devices leave out that old record and its \
            deletion when they download them (`download.old-zone-record-ignored`). A save the \
            share refuses (DR-2) leaves the old record where it is. When the app's zone is found \
            missing (ERR-1) before such a move is uploaded, its old record is gone with the zone: \
            the model is uploaded to the share's zone whole all the same, as a new record (ERR-1's \
            refill leaves it to that upload).
            the other way round too: a copy of another user's share moved under (into) a record of \
            the app's zone is uploaded to the app's zone as a new record, whole and without the \
            copy's change tag (`upload.record.moved-zone`), and its record in the share's zone is \
            deleted once that save is answered (`upload.old-zone-record-deleted`; a share that \
            refuses the deletion, DR-2, keeps it); the device then leaves out that old record and \
            its deletion when the share's feed brings them (`download.old-zone-record-ignored`). A \
            parent reference across zones is refused (`referenceViolation`), so the copy cannot \
            stay where it is. The account's other devices, which hold the model as a copy of the \
            share, are not told of the move: they drop the model with the old record's deletion \
            and leave out the new record (the swarm's participant has one device).
            """),
        Rule(id: "ID-5", group: "ID", text: """
            Two local models with the same identity values keep separate, randomly named records; \
            a model that changes to an identity another model has moves to a randomly named record.
            """),
        Rule(id: "ID-6", group: "ID", text: """
            Identity values cannot be asset properties; entities with an identity cannot be \
            sharable, below a sharable entity, or the parent of other entities (configuration \
            error).
            """, choice: """
            checked when a scenario is read: breaking it is an input error naming the rule (exit \
            2), so no run can make it fire; `synclab rules --check` counts it as enforced at \
            input, and the scenario parser's tests cover it.
            """),
        Rule(id: "ID-7", group: "ID", text: """
            Records uploaded before the identity was configured keep their names.
            """),
        Rule(id: "LIM-1", group: "LIM", text: """
            An edit of a model that another device deleted after this device's last download but \
            before its upload recreates the record with only the edited values; other devices then \
            download a model with only those values.
            """, explains: ["convergence", "lost-change", "resurrection", "duplicate-identity"]),
        Rule(id: "LIM-2", group: "LIM", text: """
            A model the app creates with the identity of a record that a running download inserts \
            at the same moment can end up as two models of the same identity on that device.
            """, explains: ["duplicate-identity"]),
        Rule(id: "LIM-3", group: "LIM", text: """
            A model that one device moves into another one (a link into a subscription) while \
            another device deletes that one without knowing about the move: if the move was not \
            uploaded yet, the moved model is deleted everywhere (like a cascade); if it was, the \
            device that moved it deletes it only locally, while the device that deleted the other \
            one keeps it at its previous place until it changes again, and its record stays in \
            iCloud.
            """, choice: """
            a model this device moved into a record of another user's share (ID-4's move), the \
            move uploaded, arrives with no deletion when the owner deletes that record without \
            knowing of the move (iCloud deletes the moved record with it): the share is gone, and \
            the model goes with its copies. Observed there by the device that moved it \
            (`shared.moved-model-removed`, the records listed under `records`); the device cannot \
            tell a share whose root was deleted from one stopped, so the trace lists the model in \
            both cases (an over-approximation).
            """, explains: ["convergence", "lost-change", "resurrection"]),
        Rule(id: "LIM-4", group: "LIM", text: """
            When a change token expires (a device offline for long), models other devices deleted \
            meanwhile stay on that device: their deletions are not downloaded again.
            """, choice: """
            the download from scratch that DEL-2 starts at the launch after a batch delete brings \
            no deletions either, so the same models stay; it is traced the same way \
            (`download.deletions-missed`, with its reason), after the download, for the models \
            whose records it did not bring.
            so does the download from scratch of a device that finds its zone created again by \
            another device (ERR-1): a model another device deleted since the zone came back stays, \
            and ERR-1's refill uploads it again; traced the same way, after that download, for the \
            models whose records the device had in the zone before and the download did not bring, \
            once the download brought some of them (a zone still empty was not refilled yet).
            a model this device then moves into (under) a model whose deletion it missed is saved \
            with a parent iCloud no longer has: refused (`referenceViolation`) at every try and \
            set aside (SCHEMA-4, ERR-7), with the other changes of the model that go with it, \
            which reach no other device: LIM-3's race (a move meets the deletion of its target) \
            whose deletion never arrives. Observed by the device whose save is refused: it traces \
            LIM-4 and LIM-3 (`upload.parent-deletion-missed`, the parent under `parent`), before \
            setting the record aside, when the parent iCloud lacks is one of the models that its \
            last download from scratch listed under `download.deletions-missed` (kept with the \
            sync data); LIM-3 explains the lost change.
            """, explains: ["convergence", "resurrection"]),
        Rule(id: "LIM-5", group: "LIM", text: """
            The removal of a record that a waiting update still references (a document's previous \
            workspace, the record a model moved away from) waits for that update; if CloudKit \
            keeps rejecting the update, the removal waits too.
            """, explains: ["lost-change"]),
        Rule(id: "LIM-6", group: "LIM", text: """
            Two devices that change values in the same overflow asset within the same moment: the \
            last upload of the asset wins (BIG-3's exception).
            """, choice: """
            observed by the device whose upload was replaced: every upload of an asset adds the \
            stamp `device@changeTag` (the change tag of the version it was merged onto) to the \
            asset's history, and a device that later receives the record with an asset whose \
            history lacks its own last stamp (the same record, not one created again) traces LIM-6.
            """, explains: ["convergence", "lost-change"]),
        Rule(id: "DR-1", group: "DR", text: """
            A model that one device creates inside another one (its first upload carries the link, \
            and the other one's delete rule cascades to it) while another device deletes that one \
            without knowing about the new model: when the deletion is downloaded, the delete rule \
            deletes the new model too before it was ever uploaded, so it and its values are lost \
            on every device (LIM-3 is the same race for a model moved there).
            """, choice: """
            observed by the device that created the model: it traces DR-1 when a downloaded \
            deletion's delete rule deletes a model whose record was never uploaded (a pending \
            insert); nothing is uploaded for it.
            """, explains: ["lost-change"]),
        Rule(id: "DR-2", group: "DR", text: """
            A write that another user's share does not permit (an edit, a move or a deletion in a \
            share accepted read-only, a participant's deletion of the share's root record) is \
            refused by CloudKit (`permissionFailure`) at every try: set aside and retried every \
            hour (SCHEMA-4, ERR-7), it never reaches iCloud, so the device keeps a change that no \
            other device gets, for as long as the app does not undo it (the app is not told that \
            the share forbids it before it saves).
            """, choice: """
            observed by the device whose write is refused: it traces DR-2 (`upload.rejected`) for \
            each record a save or deletion of an upload is refused with `permissionFailure`, \
            before setting it aside; the engine does not check a share's permission before \
            uploading.
            """, explains: ["convergence", "lost-change", "resurrection"]),
        Rule(id: "DR-3", group: "DR", text: """
            A model that a participant moves into (or creates inside) a record of another user's \
            share, while the owner stops sharing it or removes the participant: when the device \
            learns the share is gone before the move is uploaded, the removal of the share's local \
            copies (LIFE-4's removal, for a share lost) applies their delete rule to the moved \
            model too, on that device only and without recording a deletion: its record stays in \
            the participant's zone with its previous values and his other devices keep it (a new \
            model is lost on every device, like DR-1).
            """, choice: """
            observed by the device that moved the model: it traces DR-3 \
            (`shared.cascade-deleted-own-model`) when removing another user's share's copies \
            deletes, through a delete rule, a model whose record is not in that share; the engine \
            removes the copies as they are (delete rules apply) and records nothing for that \
            model. A move sent to the share whose old record is not deleted yet (the save refused, \
            e.g. `quotaExceeded`, its answer lost, or the deletion not sent yet) already made the \
            model a copy there, which the removal takes with the others; its old record is still \
            in the participant's zone, and the device traces DR-3 for it too \
            (`shared.unmoved-own-model-removed`).
            """, explains: ["convergence", "lost-change"]),
        Rule(id: "DR-4", group: "DR", text: """
            A model that one device moves into a record of another user's share (ID-4's move: a \
            new record in the share's zone, saved whole, and its record in the app's zone deleted; \
            or out of the share into the app's zone, the other way round) while another device of \
            the account edits it before it learns of the move: the edit is saved into the old \
            record, which the move's deletion then removes (or, saved after it, recreates there \
            with only the edited values, like LIM-1): the edit never reaches the model's record in \
            the share, and is lost on every device.
            """, choice: """
            observed by the device that moved the model, when a download of the app's zone brings \
            the old record changed (the edit arrived before or after it deleted that record): it \
            traces DR-4 (`download.old-zone-record-ignored`, the record listed under `records`) \
            and leaves the old record out, as every device that has the moved record does; the \
            engine does not merge the old record's values into the new one. An edit that lands \
            between the move's save and the old record's deletion reaches no device (the deletion \
            hides it from the feed), and the mover does not see an edit it had not downloaded \
            before its move either.
            observed also by the device that made the edit: while the account reads another user's \
            share, it keeps its last answered save of each record of the app's zone (forgotten \
            when a download brings that record saved since by another save); when a page of the \
            share brings a record of that name that it did not move there, created before that \
            save landed or lacking a value the save carried (the parent aside, which the move \
            changes), it traces DR-4 (`download.save-on-old-record`, the records under `records`). \
            A value that a later save it never downloaded replaced looks the same (an \
            over-approximation), and so does the same name in two zones (DR-5).
            """, explains: ["convergence", "lost-change"]),
        Rule(id: "DR-5", group: "DR", text: """
            A device signed into another account uploads its models there under the same record \
            names (ACCT-3, ACCT-4), and a share between the two accounts then brings a record of \
            one of those names from the other user's zone to a device that has it in its own: \
            records are keyed by name, so the device holds one model for two records, a change it \
            downloads from one reaches that model and not the other record, and a change it makes \
            goes to the shared record only; the account's own record keeps its values, and the \
            devices of the account disagree with it for good.
            """, choice: """
            observed by the device that accepted the share, when a page of the shared zone brings \
            a record whose name is bound to a model whose record (with a change tag) is in the \
            app's zone: it traces DR-5 (`download.record-name-in-two-zones`, the records listed \
            under `records`) and binds the model to the shared record, as for a record the device \
            moved there; the engine does not rename either record. A model another device of the \
            account moved into the share (ID-4) comes the same way before its old record's \
            deletion does, so the trace also lists it (an over-approximation).
            the other order too: a device signed into the other account uploads its models to this \
            account's zone after this device accepted the share: when a page of the app's zone \
            brings a record whose name is bound to a copy of another user's share that this device \
            did not move there, the engine leaves it out as the old record of a move (ID-4) and \
            the model stays the share's copy (when the share goes, so does the model, and the \
            account's own record stays on no device); it traces DR-5 the same way \
            (`download.record-name-in-two-zones`, the app's zone under `zone`). A move another \
            device of the account made (into the share, its old record edited since: DR-4; or out \
            of it, ID-4's new record) comes the same way, so the trace also lists it (an \
            over-approximation).
            """, explains: ["convergence", "lost-change"]),
        Rule(id: "DR-6", group: "DR", text: """
            A change that a participant makes to a record of another user's share (an edit or a \
            deletion) while the owner stops sharing it or removes the participant: when the device \
            learns the share is gone before the change is uploaded, it removes the share's copies \
            (LIFE-4's removal, for a share lost) and the change with them; it never reaches iCloud \
            (sent, the share would refuse it: DR-2), and the owner's devices keep the record as it \
            was.
            """, choice: """
            observed by the device whose change is dropped: it traces DR-6 \
            (`shared.copies-removed-with-changes`, the records listed under `records`) when \
            removing a lost share's copies drops a change or deletion of them not uploaded yet; \
            the engine neither keeps the change nor uploads it elsewhere.
            """, explains: ["lost-change", "resurrection"]),
        Rule(id: "DR-7", group: "DR", text: """
            A record that a device keeps aside because its store rejects the values (DL-4: e.g. an \
            older version of the app that lacks a value the current model requires) is no model \
            there, so when that device deletes the model the record belongs to (a parent whose \
            delete rule cascades), nothing else is deleted on it and its deletion is uploaded \
            alone; iCloud's cascade (the record's reference to it deletes it, `deleteSelf`) then \
            deletes the record kept aside, and the other devices lose that model and the changes \
            they made to it, though no device deleted it.
            """, choice: """
            observed by the device that deleted the parent: when its deletion is answered, it \
            traces DR-7 (`upload.deletion-takes-kept-aside`, the records under `records`) for the \
            records it keeps aside under DL-4 whose cascading reference names the deleted record \
            (one kept aside for a reference not downloaded, DL-3, is LIM-3's, traced when it is \
            kept aside); the engine neither holds the deletion back nor deletes those records \
            itself.
            """, explains: ["lost-change"]),
        Rule(id: "DR-8", group: "DR", text: """
            The app's zone is deleted (by the cloud, or a purge on another device) while a \
            device's change token has expired, and another device creates it again first (ERR-1: \
            it finds the zone missing and refills it with what it holds): the device's download \
            from scratch (LIM-4's) finds the zone without the records it uploaded there (empty, or \
            holding only what the other device refilled), and no request of it fails with \
            `zoneNotFound`, so its own ERR-1 refill never runs; the models only it held stay on it \
            alone, missing from iCloud and every other device (outbox's forms are OBX-DR-6, the \
            device's own zone save creating the zone again, and OBX-DR-7, another device's).
            """, choice: """
            observed by the device whose token expired: when its download from scratch brings none \
            of the records of the models it holds (an identity record, ID-1, does not count: \
            another device's refill makes it under the same name), and it holds models whose \
            records it uploaded there (nothing pending), it traces DR-8 \
            (`download.zone-found-empty`, the records under `records`) after LIM-4's \
            `download.deletions-missed`; it cannot tell such a zone from one whose every record \
            was deleted elsewhere (those deletions, missed, are LIM-4's), so the trace is an \
            over-approximation; the engine does not upload those models again.
            """, explains: ["lost-change"]),
        Rule(id: "DR-9", group: "DR", text: """
            A save whose answer never arrives (the app is killed, or its sync is stopped by an \
            account check, ACCT-5, while the request is out) and that did not land (refused during \
            an outage, say), while another device saves other keys of the same record: the \
            download brings the record at another change tag, saved last by the other device, and \
            SYNC-4's memory of unanswered saves counts the keys as uploaded, as it must when the \
            save landed and the other device saved over it after seeing it; the device cannot tell \
            the two apart (CloudKit names the device that saved a record last, not the keys it \
            saved), so the edit is dropped and lost on every device.
            """, choice: """
            observed by the device whose save is settled: when a download brings the record at \
            another change tag, saved last by another device, without the value sent for a key it \
            counts as uploaded, it traces DR-9 (`download.unanswered-keys-overwritten`, the keys \
            under `keys`); the engine counts them as uploaded all the same (sent again, they would \
            overwrite another device's newer save), so the trace also names saves that landed and \
            were saved over (an over-approximation). A record this device saved last is no such \
            case: a key it lacks the value sent of stays pending (SYNC-4).
            """, explains: ["lost-change"]),
    ]
}
