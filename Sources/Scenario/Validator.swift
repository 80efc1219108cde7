/// The checks behind `ScenarioValidator`: names, types and values against the schema and
/// the declarations, and the configuration rules (CFG-2, ID-6).
///
/// It walks the tree in file order once per concern; lookups go through arrays so that
/// candidates for suggestions keep declaration order and output never depends on hashing.
struct Validator {
    let scenario: ScenarioFile
    let options: ValidationOptions
    var diagnostics: [Diagnostic] = []
    /// The engine of the expectation being checked (`expect [naive] …`), if it names one.
    var scopedEngine: String?
    /// The engine `forEachCheckedEngine` is checking a statement against.
    var currentEngine: String?
    /// The positions `diagnostics` speak at, so that keeping one per position costs a
    /// lookup, not a scan (a line of 100,000 bad characters gives 100,000 diagnostics).
    private var reportedLocations: Set<SourceLocation> = []
    /// The facts of every engine the scenario names (its `engine` and `engines` lines, the
    /// override), asked once.
    let namedEngineFacts: [String: EngineFacts]

    init(scenario: ScenarioFile, options: ValidationOptions) {
        self.scenario = scenario
        self.options = options
        let named = [options.engineOverride, scenario.header.effectiveEngine].compactMap { $0 }
            + scenario.header.engines.map(\.value)
        var facts: [String: EngineFacts] = [:]
        for name in named where facts[name] == nil {
            facts[name] = options.facts(forEngine: name)
        }
        namedEngineFacts = facts
    }

    mutating func run() -> [Diagnostic] {
        checkHeader()
        checkSchema()
        checkSetup()
        checkTimeline()
        checkChaos()
        checkDurations()
        let ordered = diagnostics.enumerated().sorted {
            ($0.element.location, $0.offset) < ($1.element.location, $1.offset)
        }
        return ordered.map(\.element)
    }

    /// Records a diagnostic unless one is already at that position (as the parser does): the
    /// first check to explain a spot is the most specific one.
    mutating func report(
        _ message: DiagnosticMessage, at location: SourceLocation, notes: [DiagnosticNote] = []
    ) {
        guard reportedLocations.insert(location).inserted else { return }
        diagnostics.append(message.diagnostic(file: scenario.file, at: location, notes: notes))
    }

    /// Reports every name after the first of its kind, with a note pointing at the first.
    mutating func reportDuplicates(_ names: [Located<String>], kind: String) {
        var firsts: [Located<String>] = []
        for name in names {
            if let first = firsts.first(where: { $0.value == name.value }) {
                let note = DiagnosticNote(location: first.location, message: "first declared here")
                report(.duplicateDeclaration(kind, name.value), at: name.location, notes: [note])
            } else {
                firsts.append(name)
            }
        }
    }

    // MARK: - Lookups that report unknown names

    @discardableResult
    mutating func requireDevice(_ name: Located<String>) -> Bool {
        let names = scenario.devices.map(\.name.value)
        if names.contains(name.value) { return true }
        let suggestions = Suggestions.closest(to: name.value, among: names)
        report(.unknownName("device", name.value, suggestions: suggestions), at: name.location)
        return false
    }

    @discardableResult
    mutating func requireAccount(_ name: Located<String>) -> Bool {
        let names = scenario.accounts.map(\.name.value)
        if names.contains(name.value) { return true }
        let suggestions = Suggestions.closest(to: name.value, among: names)
        report(.unknownName("account", name.value, suggestions: suggestions), at: name.location)
        return false
    }

    mutating func requireEntity(_ name: Located<String>) -> EntityDeclaration? {
        if let entity = scenario.entity(named: name.value) { return entity }
        let names = scenario.entities.map(\.name.value)
        let suggestions = Suggestions.closest(to: name.value, among: names)
        report(.unknownName("entity", name.value, suggestions: suggestions), at: name.location)
        return nil
    }

    mutating func requireScope(_ scope: ExpectationScope) {
        switch scope {
        case .device(let device): requireDevice(device)
        case .cloud(let account): requireAccount(account)
        }
    }

    // MARK: - Header and setup

    private mutating func checkHeader() {
        checkStoryEngines()
        guard let engine = scenario.header.engine, let engines = options.engines,
            !engines.contains(engine.value)
        else { return }
        let suggestions = Suggestions.closest(to: engine.value, among: engines)
        report(.unknownName("engine", engine.value, suggestions: suggestions,
            choices: DiagnosticMessage.engineChoices(engines)), at: engine.location)
    }

    private mutating func checkSetup() {
        reportDuplicates(scenario.accounts.map(\.name), kind: "account")
        reportDuplicates(scenario.devices.map(\.name), kind: "device")
        for device in scenario.devices {
            if let account = device.account { requireAccount(account) }
            checkExtension(device)
            checkSelections(device.syncs ?? [])
        }
        var seen: [(key: String, location: SourceLocation)] = []
        for setting in scenario.cloudSettings {
            let key = Self.settingName(setting.kind)
            if let first = seen.first(where: { $0.key == key }) {
                let note = DiagnosticNote(location: first.location, message: "first set here")
                report(.duplicateSetting(key), at: setting.location, notes: [note])
            } else {
                seen.append((key, setting.location))
            }
        }
    }

    static func settingName(_ setting: CloudSettingKind) -> String {
        switch setting {
        case .latency: return "cloud latency"
        case .pushLatency: return "cloud push latency"
        case .pushDrop: return "cloud push drop"
        case .pageSize: return "cloud page-size"
        case .environment: return "cloud environment"
        case .missingDeletes: return "cloud missing-deletes"
        case .childSaves: return "cloud child-saves"
        }
    }

    /// `extension of APP`: APP is a declared app device; the extension has no account of its
    /// own (it shares the app's).
    private mutating func checkExtension(_ device: DeviceDeclaration) {
        guard let host = device.extensionOf else { return }
        guard requireDevice(host),
              let hostDevice = scenario.device(named: host.value) else { return }
        if hostDevice.extensionOf != nil || host.value == device.name.value {
            report(.extensionOfExtension(host.value), at: host.location)
        } else if let hostIndex = scenario.devices.firstIndex(
                      where: { $0.name.value == host.value }),
                  let ownIndex = scenario.devices.firstIndex(
                      where: { $0.name.value == device.name.value }),
                  hostIndex > ownIndex {
            report(.extensionBeforeApp(host.value), at: host.location)
        }
        if let account = device.account {
            report(.extensionWithAccount(device.name.value), at: account.location)
        }
    }

    /// `syncs` and `identity` lists: entities and keys the schema declares and synchronizes.
    mutating func checkSelections(_ items: [SyncSelection], attributesOnly: Bool = false) {
        for item in items {
            guard let entity = requireEntity(item.entity) else { continue }
            for key in item.keys ?? [] {
                let names = attributesOnly
                    ? entity.attributes.map(\.name.value) : entity.propertyNames
                guard names.contains(key.value) else {
                    let suggestions = Suggestions.closest(to: key.value, among: names)
                    report(.unknownName("property", key.value, suggestions: suggestions,
                        choices: "the \(attributesOnly ? "attributes" : "properties") of "
                            + "'\(entity.name.value)' are " + DiagnosticMessage.quotedList(names)),
                        at: key.location)
                    continue
                }
                if !entity.isSynchronized(property: key.value) {
                    report(.notSynchronizedBySchema(entity.name.value, key.value), at: key.location)
                }
            }
        }
    }
}
