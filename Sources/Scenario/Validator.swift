/// The checks behind `ScenarioValidator`: names, types and values against the schema and
/// the declarations, and the configuration rules (CFG-2, ID-6).
///
/// It walks the tree in file order once per concern; lookups go through arrays so that
/// candidates for suggestions keep declaration order and output never depends on hashing.
struct Validator {
    let scenario: ScenarioFile
    let options: ValidationOptions
    var diagnostics: [Diagnostic] = []

    init(scenario: ScenarioFile, options: ValidationOptions) {
        self.scenario = scenario
        self.options = options
    }

    mutating func run() -> [Diagnostic] {
        checkHeader()
        checkSchema()
        checkSetup()
        checkTimeline()
        checkChaos()
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
        if diagnostics.contains(where: { $0.location == location }) { return }
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
        guard let engine = scenario.header.engine, let engines = options.engines,
            !engines.contains(engine.value)
        else { return }
        let suggestions = Suggestions.closest(to: engine.value, among: engines)
        report(.unknownName("engine", engine.value, suggestions: suggestions),
            at: engine.location)
    }

    private mutating func checkSetup() {
        reportDuplicates(scenario.accounts.map(\.name), kind: "account")
        reportDuplicates(scenario.devices.map(\.name), kind: "device")
        for device in scenario.devices {
            if let account = device.account { requireAccount(account) }
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
        }
    }
}
