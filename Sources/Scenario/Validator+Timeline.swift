/// A label bound by an `insert`, as the timeline has seen it so far.
struct LabelBinding {
    var name: String
    var entity: String
    var location: SourceLocation
}

/// What the timeline walk knows at a statement: bound labels, the earliest time the script
/// can be at, and the transactions each device has open.
struct TimelineState {
    /// The bound labels in binding order (each name once), and where each name is in it:
    /// a lookup costs O(1), not a scan, so a generated script of N inserts checks in O(N).
    private(set) var labels: [LabelBinding] = []
    private var labelIndex: [String: Int] = [:]
    var earliestTime = TimeSpan.zero
    var openTransactions: [(device: String, location: SourceLocation)] = []

    func label(named name: String) -> LabelBinding? {
        labelIndex[name].map { labels[$0] }
    }

    /// Binds a label not bound yet.
    mutating func append(_ binding: LabelBinding) {
        precondition(labelIndex[binding.name] == nil, "label '\(binding.name)' bound twice")
        labelIndex[binding.name] = labels.count
        labels.append(binding)
    }
}

/// Timeline checks, in file order: names, labels bound before use, values, times that do not
/// go backwards, transactions, probe points and rule IDs.
extension Validator {
    mutating func checkTimeline() {
        var state = TimelineState()
        for statement in scenario.timeline {
            check(statement, state: &state)
        }
    }

    private mutating func check(_ statement: TimelineStatement, state: inout TimelineState) {
        switch statement.kind {
        case .wait(let duration):
            let (sum, overflow) = state.earliestTime.microseconds.addingReportingOverflow(
                duration.value.microseconds)
            let before = state.earliestTime
            state.earliestTime = TimeSpan(microseconds: overflow ? Int64.max : sum)
            // The first wait that takes the script past the budget; a wait longer than the
            // budget by itself is reported as such by `checkDurations`.
            let budget = timeBudget
            if before <= budget, state.earliestTime > budget, duration.value <= budget {
                report(.scriptBeyondTimeBudget("wait \(duration.value.unitText)",
                    reaches: state.earliestTime, budget: budget, hint: budgetHint),
                    at: duration.location)
            }
        case .waitUntilIdle(let device):
            requireDevice(device)
        case .settle:
            break
        case .at(let time):
            if time.value < state.earliestTime {
                report(.timeGoesBackwards(time.value, earliest: state.earliestTime),
                    at: time.location)
            }
            state.earliestTime = max(state.earliestTime, time.value)
        case .deviceAction(let action):
            check(action, inTrigger: false, state: &state)
        case .cloudAction(let action):
            check(action, state: &state)
        case .trigger(let trigger):
            check(trigger, state: &state)
        case .expectation(let expectation):
            if let engine = expectation.engine {
                guard let scoped = checkExpectationEngine(engine) else {
                    // Its names cannot be checked against an engine it does not run on.
                    check(expectation.kind, state: &state, namesChecked: false)
                    return
                }
                scopedEngine = scoped
                check(expectation.kind, state: &state)
                scopedEngine = nil
            } else {
                check(expectation.kind, state: &state)
            }
        }
    }

    private mutating func check(_ trigger: Trigger, state: inout TimelineState) {
        requireDevice(trigger.device)
        let probe = trigger.probe
        forEachCheckedEngine { validator in
            let probePoints = validator.engineFacts?.probePoints ?? validator.options.probePoints
            if !probePoints.contains(probe.value) {
                let suggestions = Suggestions.closest(to: probe.value, among: probePoints)
                let choices = DiagnosticMessage.probePointChoices(
                    engine: validator.engineFacts == nil ? nil : validator.engineName)
                validator.report(.unknownName("probe point", probe.value, suggestions: suggestions,
                    choices: choices), at: probe.location)
            }
        }
        switch trigger.action {
        case .device(let action): check(action, inTrigger: true, state: &state)
        case .cloud(let action): check(action, state: &state)
        }
    }

    // MARK: - Labels

    /// The binding of a label used (not bound) here, reporting it when no insert bound it.
    /// `keywords`: the words that could stand where the label does (an expectation's), offered
    /// when the label is close to none bound (`expect phone: cont Note = 1` → 'count').
    mutating func requireLabel(
        _ label: Located<String>, state: TimelineState, keywords: [String] = []
    ) -> LabelBinding? {
        if let binding = state.label(named: label.value) { return binding }
        let names = state.labels.map(\.name)
        var suggestions = Suggestions.closest(to: label.value, among: names)
        if suggestions.isEmpty {
            suggestions = Suggestions.closest(to: label.value, among: keywords)
        }
        report(.unboundLabel(label.value, suggestions: suggestions), at: label.location)
        return nil
    }

    private mutating func bind(
        _ label: Located<String>, entity: String, state: inout TimelineState
    ) {
        if let first = state.label(named: label.value) {
            let note = DiagnosticNote(location: first.location, message: "first bound here")
            report(.duplicateLabel(label.value), at: label.location, notes: [note])
            return
        }
        let binding = LabelBinding(name: label.value, entity: entity, location: label.location)
        state.append(binding)
    }

    // MARK: - Device actions

    private mutating func check(
        _ statement: DeviceActionStatement, inTrigger: Bool, state: inout TimelineState
    ) {
        requireDevice(statement.device)
        checkEngineSupports(statement)
        switch statement.action {
        case .insert(let entityName, let label, let values):
            guard let entity = requireEntity(entityName) else {
                bind(label, entity: entityName.value, state: &state)
                return
            }
            checkAssignments(values, entity: entity, context: .assignment, state: state)
            checkRequiredValues(values, entity: entity, label: label)
            bind(label, entity: entity.name.value, state: &state)
        case .update(let label, let values):
            guard let binding = requireLabel(label, state: state),
                let entity = scenario.entity(named: binding.entity)
            else { return }
            checkAssignments(values, entity: entity, context: .assignment, state: state)
        case .delete(let label), .acceptShare(let label), .unshare(let label),
            .leaveShare(let label):
            _ = requireLabel(label, state: state)
        case .share(let label, let account, _, _):
            requireAccount(account)
            checkSharable(label, state: state)
        case .sharePublic(let label, _):
            checkSharable(label, state: state)
        case .removeParticipant(let account, let label):
            requireAccount(account)
            _ = requireLabel(label, state: state)
        case .batchDelete(let entityName, let filter):
            guard let entity = requireEntity(entityName) else { return }
            checkAssignments(filter, entity: entity, context: .filter, state: state)
        case .signIn(let account):
            requireAccount(account)
        case .begin, .save, .rollback, .kill, .loseStore:
            if !inTrigger { trackTransaction(statement, state: &state) }
        case .sync, .autosync, .offline, .online, .launch, .stop, .start, .resetSyncData,
            .initializeSchema, .signOut, .accountUnavailable, .accountAvailable, .accountStatus,
            .rebuildStore, .diskFull, .observe:
            break
        case .upgrade(let version):
            checkSelections(version.syncs ?? [])
            for identity in version.identities { checkSelections([identity], attributesOnly: true) }
            break
        }
    }

    /// An insert sets every attribute that has neither `?` nor a default: the harness has
    /// no value to give it otherwise.
    private mutating func checkRequiredValues(
        _ values: [Assignment], entity: EntityDeclaration, label: Located<String>
    ) {
        let given = values.map(\.key.value)
        let missing = entity.attributes.filter {
            !$0.isOptional && $0.defaultValue == nil && !given.contains($0.name.value)
        }
        guard !missing.isEmpty else { return }
        report(.missingValues(missing.map(\.name.value), label: label.value), at: label.location)
    }

    private mutating func checkSharable(_ label: Located<String>, state: TimelineState) {
        guard let binding = requireLabel(label, state: state),
            let entity = scenario.entity(named: binding.entity), !entity.isSharable
        else { return }
        report(.notSharable(label.value, entity: entity.name.value), at: label.location)
    }

    /// `begin` opens a transaction on the device; `save` or `rollback` closes it; `kill` and
    /// `lose-store` discard it. Statements in triggers run at unknown times and are skipped.
    private mutating func trackTransaction(
        _ statement: DeviceActionStatement, state: inout TimelineState
    ) {
        let device = statement.device.value
        let open = state.openTransactions.firstIndex { $0.device == device }
        switch statement.action {
        case .begin:
            if let open {
                let note = DiagnosticNote(
                    location: state.openTransactions[open].location, message: "begun here")
                report(.nestedTransaction(device), at: statement.location, notes: [note])
            } else {
                state.openTransactions.append((device, statement.location))
            }
        case .save, .rollback:
            if let open {
                state.openTransactions.remove(at: open)
            } else {
                let word = statement.action == .save ? "save" : "rollback"
                report(.noOpenTransaction(word, device: device), at: statement.location)
            }
        default:
            if let open { state.openTransactions.remove(at: open) }
        }
    }

    // MARK: - Cloud actions

    private mutating func check(_ statement: CloudActionStatement, state: inout TimelineState) {
        switch statement.action {
        case .throttle(let account, _), .throttleNextUpload(let account, _, _),
            .throttleNextDeletes(let account, _, _),
            .quota(let account, _), .deleteZone(let account), .userDeleteZone(let account),
            .expireTokens(let account), .failDownloads(let account, _), .zoneBusy(let account, _),
            .failNextBatch(let account, _):
            requireAccount(account)
        case .zoneFault(_, let account, let zone):
            requireAccount(account)
            switch zone?.value {
            case .collection(let label)?:
                _ = requireLabel(Located(label, at: zone!.location), state: state)
            case .zone(let name)?:
                if let problem = Self.zoneNameProblem(name) {
                    report(.invalidZoneName(name, problem: problem), at: zone!.location)
                }
            case nil:
                break
            }
        case .reject(let label, _), .accept(let label):
            _ = requireLabel(label, state: state)
        case .putRecord(let account, _, _, let fields):
            requireAccount(account)
            checkRawValues(fields, state: state)
        case .serveOldVersion(let account, let label):
            requireAccount(account)
            _ = requireLabel(label, state: state)
        case .outage, .deploySchema, .setting:
            break
        }
    }

    /// Why a zone fault cannot name this zone, nil when it can: the custom-zone rules of
    /// CKRecordZone.ID (1–255 ASCII characters, no leading `_`; `_defaultZone` can never be
    /// deleted), docs/CLOUDSIM.md.
    static func zoneNameProblem(_ name: String) -> String? {
        if name == "_defaultZone" { return "the default zone cannot be deleted" }
        if name.isEmpty || name.utf8.count > 255 { return "a zone name has 1 to 255 characters" }
        if !name.unicodeScalars.allSatisfy(\.isASCII) { return "a zone name is ASCII" }
        if name.hasPrefix("_") { return "names starting with '_' are reserved" }
        return nil
    }

    // MARK: - Expectations

    /// The words an expectation of `scope` can start with instead of a label.
    static func expectationWords(_ scope: ExpectationScope) -> [String] {
        if case .cloud = scope { return ["no", "count"] }
        return ["no", "count", "state", "pending", "fired", "not", "downloaded-once", "refused"]
    }

    private mutating func check(
        _ expectation: ExpectationKind, state: inout TimelineState, namesChecked: Bool = true
    ) {
        switch expectation {
        case .values(let scope, let label, let values):
            requireScope(scope)
            guard let binding = requireLabel(
                    label, state: state, keywords: Self.expectationWords(scope)),
                let entity = scenario.entity(named: binding.entity)
            else { return }
            var context = AssignmentContext.deviceExpectation
            if case .cloud = scope { context = .cloudExpectation }
            checkAssignments(values, entity: entity, context: context, state: state)
        case .absent(let scope, let label):
            requireScope(scope)
            _ = requireLabel(label, state: state)
        case .count(let scope, let entityName, let filter, _, _):
            requireScope(scope)
            guard let entity = requireEntity(entityName) else { return }
            checkAssignments(filter, entity: entity, context: .filter, state: state)
        case .recordName(let account, let label, _):
            requireAccount(account)
            _ = requireLabel(label, state: state)
        case .state(let device, let name, let argument):
            requireDevice(device)
            if namesChecked {
                forEachCheckedEngine { $0.checkState(name, argument: argument) }
            }
        case .downloadedOnce(let device, _), .pending(let device, _), .refused(let device, _):
            requireDevice(device)
        case .fired(let device, let rule, _):
            if let device { requireDevice(device) }
            if namesChecked {
                forEachCheckedEngine { $0.checkRuleID(rule) }
            }
        case .converged, .failure, .warning:
            break
        case .recordZone(let account, let label, let zone):
            requireAccount(account)
            _ = requireLabel(label, state: state)
            if zone.value != "_defaultZone", let problem = Self.zoneNameProblem(zone.value) {
                report(.invalidZoneName(zone.value, problem: problem), at: zone.location)
            }
        case .rawValues(let account, let label, let values):
            requireAccount(account)
            _ = requireLabel(label, state: state)
            checkRawValues(values, state: state)
        case .loadError(let device, _):
            requireDevice(device)
        case .query(let account, _, let conditions, _, _):
            requireAccount(account)
            checkQueryConditions(conditions, state: state)
        }
    }

    /// `state NAME[(DETAIL)]` against the states the engine can show, when they are known.
    private mutating func checkState(_ name: Located<String>, argument: Located<String>?) {
        guard let known = engineFacts?.stateNames ?? options.states else { return }
        let text = argument.map { "\(name.value)(\($0.value))" } ?? name.value
        guard !known.contains(text) else { return }
        var suggestions = Suggestions.closest(to: text, among: known)
        if suggestions.isEmpty, let argument {
            // `waiting(retry)`: the detail is what is wrong; compare it with the details of
            // the states of that name, or offer them all.
            let prefix = name.value + "("
            let details = known.filter { $0.hasPrefix(prefix) }.map {
                String($0.dropFirst(prefix.count).dropLast())
            }
            let close = Suggestions.closest(to: argument.value, among: details)
            suggestions = (close.isEmpty ? Array(details.prefix(3)) : close).map {
                "\(name.value)(\($0))"
            }
        }
        report(.unknownState(text, suggestions: suggestions), at: name.location)
    }

    private mutating func checkRuleID(_ rule: Located<String>) {
        if let known = engineFacts?.ruleIDs ?? options.ruleIDs {
            guard !known.contains(rule.value) else { return }
            // A file run with another engine (`--engine`) keeps its expectations on its own
            // engine's rules: they run, and may fail, since outcomes differ between engines.
            if scopedEngine == nil,
               !scenario.header.engines.contains(where: { $0.value == engineName }),
               let override = options.engineOverride, override != scenario.header.effectiveEngine,
               namedEngineFacts[scenario.header.effectiveEngine]?.ruleIDs
                   .contains(rule.value) == true {
                return
            }
            let suggestions = Suggestions.closest(to: rule.value, among: known)
            // `SYNC-99`: every SYNC rule is as close as any other; the group's range says more.
            let group = rule.value.uppercased().prefix { $0 != "-" } + "-"
            let members = known.filter { $0.hasPrefix(group) }
            if let first = members.first, let last = members.last, suggestions.count > 1 {
                let range = first == last ? first : "\(first) to \(last)"
                let page = engineFacts?.cataloguePage ?? "docs/RULES.md"
                let listing = engineName == ScenarioHeader.defaultEngine
                    ? "synclab rules" : "synclab rules --engine \(engineName)"
                report(.unknownRule(rule.value, groupRange: range, page: page, listing: listing),
                    at: rule.location)
                return
            }
            report(.unknownName("rule", rule.value, suggestions: suggestions), at: rule.location)
        } else if !Self.isRuleIDShaped(rule.value) {
            let upper = rule.value.uppercased()
            let suggestions = Self.isRuleIDShaped(upper) ? [upper] : []
            report(.invalidRuleID(rule.value, suggestions: suggestions), at: rule.location)
        }
    }

    /// `[A-Z]+-[0-9]+`, like `SYNC-4`.
    static func isRuleIDShaped(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return false }
        let letters = parts[0].unicodeScalars
        let digits = parts[1].unicodeScalars
        return !letters.isEmpty && letters.allSatisfy { ("A"..."Z").contains($0) }
            && !digits.isEmpty && digits.allSatisfy(Lexer.isDigit)
    }
}
