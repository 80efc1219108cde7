/// The checks behind `ScenarioValidator` (work in progress).
struct Validator {
    let scenario: ScenarioFile
    let options: ValidationOptions

    mutating func run() -> [Diagnostic] { [] }
}
