import Foundation
import Testing

/// The determinism lint (README.md, "Run the tests"), run as a test so that no change can skip it.
///
/// It reads every `.swift` file under `Sources/` and fails, naming `file:line`, on anything
/// that lets the wall clock, system randomness, threads or hash order reach the simulation.
/// Comments and string literals are blanked before matching, so prose about `Date()` is fine.
/// Comments are read for one thing: an issue number, which belongs in a commit message.
/// Every line is held to `Tidy.maximumLineWidth` characters, and every function to
/// `Tidy.maximumFunctionLines` lines.
@Suite("Tidy")
struct TidyTests {
    @Test("Sources/ holds no wall clock, system randomness, threads, hash order or issue numbers")
    func sourcesAreTidy() throws {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let files = try Tidy.swiftFiles(under: root, folder: "Sources")
        // Guard against a vacuous pass: the scan must see the kernel it protects.
        #expect(files.contains("Sources/Kernel/EventQueue.swift"), "scanned \(files.count) files")
        var sources: [(path: String, text: String)] = []
        for path in files {
            let url = root.appendingPathComponent(path)
            sources.append((path, try String(contentsOf: url, encoding: .utf8)))
        }
        // Arrays of tuples declared in any file, so `for (a, b) in lexer.problems` passes
        // when `problems` is declared as `[(A, B)]` in another file.
        let arrays = sources.reduce(into: Set<String>()) {
            $0.formUnion(Tidy.tupleArrayNames(in: Tidy.codeLines($1.text)))
        }
        var violations: [Tidy.Violation] = []
        for source in sources {
            violations += Tidy.scan(source.text, path: source.path, tupleArrays: arrays)
        }
        let report = violations.map(\.description).joined(separator: "\n")
        #expect(violations.isEmpty, Comment(rawValue: "tidy found:\n" + report))
    }

    @Test("each rule catches a planted violation", arguments: Tidy.Example.planted)
    func catchesPlanted(example: Tidy.Example) {
        let found = Tidy.scan(example.source, path: example.path).map(\.rule)
        #expect(found == example.rules, "\(example.source)")
    }

    @Test("allowed forms pass", arguments: Tidy.Example.allowed)
    func allowsClean(example: Tidy.Example) {
        let found = Tidy.scan(example.source, path: example.path)
        #expect(found.isEmpty, "\(found)")
    }

    @Test("a violation names the file, the 1-based line and the rule")
    func reportsPosition() {
        let source = "let a = 1\n// Date() in a comment\nlet b = Date()\n"
        let found = Tidy.scan(source, path: "Sources/Device/Clock.swift")
        #expect(found.map(\.description) == [
            "Sources/Device/Clock.swift:3: [wall-clock] 'Date(': only the kernel has a clock; "
                + "use SimTime: let b = Date()",
        ])
    }

    @Test("comments and string contents are blanked, interpolations are not")
    func blanking() {
        let source = #"""
            let a = "Date() \(UUID()) \"Thread\"" /* Thread
            DispatchQueue */ let b = 1 // await
            let c = """
              async await
              """
            let d = #"Task.sleep \(x)"#
            """#
        let lines = Tidy.codeLines(source)
        #expect(lines[0].contains("UUID()"))
        #expect(!lines[0].contains("Date") && !lines[0].contains("Thread"))
        #expect(!lines[1].contains("DispatchQueue") && lines[1].contains("let b = 1"))
        #expect(!lines[1].contains("await") && !lines[3].contains("async"))
        #expect(!lines[5].contains("Task") && !lines[5].contains("x"))
    }
}

/// The scanner: blank comments and strings, then match each line against the rules.
enum Tidy {
    struct Violation: Equatable, CustomStringConvertible {
        let path: String
        let line: Int
        let rule: String
        let message: String
        let text: String

        var description: String { "\(path):\(line): [\(rule)] \(message): \(text)" }
    }

    /// A rule: tokens that must not appear in code, and where they are allowed after all.
    struct Rule {
        let id: String
        let tokens: [String]
        let message: String
        /// Path prefixes where the rule does not apply.
        var exempt: [String] = []
        /// The rule applies only under these path prefixes (all paths when empty).
        var only: [String] = []
        /// A token on a line that also has this text is allowed (`using:` for randomness).
        var unless: String?
        /// Tokens match the start of longer names too (`arc4random_uniform`).
        var prefixes = false
    }

    /// The executable and the library that holds its commands.
    static let cli = ["Sources/synclab/", "Sources/SyncLabCLI/"]
    /// The one file allowed to start threads: `synclab explore --jobs J`.
    static let explorerWorkers = "Sources/SyncLabCLI/ExploreWorkers.swift"
    /// Apple's CloudKit API and its test driver: the app's async code runs on each device's
    /// executor (docs/BRING-YOUR-OWN-ENGINE.md), one job at a time on the simulation's thread.
    static let cloudKit = ["Sources/CloudKit/", "Sources/SyncLabTesting/"]
    /// Combine's schedulers: Apple's types, which on a device wait in its simulated time on its
    /// executor (`DeviceClock`) and elsewhere are Foundation's own.
    static let combineSchedulers = ["Sources/Combine/DeviceClock.swift",
        "Sources/Combine/DispatchQueue+Scheduler.swift", "Sources/Combine/RunLoop+Scheduler.swift"]
    /// Combine's `values`: an app's task awaits a publisher's values on its device.
    static let combineValues = "Sources/Combine/AsyncPublisher.swift"
    /// `NWPathMonitor.start(queue:)` takes Apple's queue; on a device it is not used.
    static let pathMonitor = "Sources/Network/NWPathMonitor.swift"

    static let rules: [Rule] = [
        // DispatchQueue+Device reads Dispatch's clock only to turn an app's `asyncAfter`
        // deadline back into the delay it was built from, which then runs in simulated time;
        // Combine's schedulers read the machine's clock only off a device.
        Rule(id: "wall-clock",
             tokens: ["Date(", "Date.now", "DispatchTime", "ContinuousClock", "SuspendingClock",
                      "clock_gettime", "gettimeofday", "CFAbsoluteTimeGetCurrent"],
             message: "only the kernel has a clock; use SimTime",
             exempt: cli + ["Sources/CloudKit/DispatchQueue+Device.swift"] + combineSchedulers),
        Rule(id: "uuid", tokens: ["UUID("],
             message: "names come from a seeded stream, not UUID()"),
        Rule(id: "system-random",
             tokens: ["SystemRandomNumberGenerator", "arc4random", "drand48"],
             message: "randomness comes from RandomStreams", prefixes: true),
        Rule(id: "system-random",
             tokens: [".random(", ".randomElement(", ".shuffled(", ".shuffle("],
             message: "pass a seeded generator with 'using:'", unless: "using:"),
        Rule(id: "threads",
             tokens: ["DispatchQueue", "DispatchGroup", "DispatchSemaphore", "OperationQueue",
                      "Thread", "Task.sleep", "Task.detached", "Task {", "Task{", "async",
                      "await", "pthread_create"],
             message: "the simulation is single-threaded; schedule a kernel event",
             // The explorer's worker pool runs independent seeds on J threads; each run
             // stays single-threaded, and results do not depend on J. Only that file.
             // The CloudKit module's async code, and Combine's schedulers' and `values`',
             // runs on each device's executor.
             exempt: [explorerWorkers] + cloudKit + combineSchedulers
                + [combineValues, pathMonitor]),
        // StandardDirectories reads one XDG variable only to put it back after Foundation
        // has read the Documents folder.
        Rule(id: "environment", tokens: ["ProcessInfo.processInfo.environment", "getenv("],
             message: "only the CLI reads the environment",
             exempt: cli + ["Sources/CloudKit/StandardDirectories.swift"]),
        Rule(id: "hash-value", tokens: [".hashValue"],
             message: "hash values change from process to process"),
        Rule(id: "kernel-import", tokens: ["import"],
             message: "the kernel imports nothing", only: ["Sources/Kernel/"]),
    ]

    /// Files whose comments may still name an issue ("issue 19: …"): they are being rewritten
    /// on other branches. Temporary: remove each once its comments say why without the number.
    static let issueNumberExempt: [String] = []

    /// The widest a line of `Sources/` may be, in characters.
    static let maximumLineWidth = 100

    /// Scans one file's text; `path` is relative to the repository (for exemptions), and
    /// `tupleArrays` names arrays of tuples declared in other files.
    static func scan(_ source: String, path: String, tupleArrays: Set<String> = []) -> [Violation] {
        let (code, comments) = blankedLines(source)
        let raw = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let patterns = Patterns(
            unorderedNames: unorderedNames(in: code),
            tupleArrays: tupleArrays.union(tupleArrayNames(in: code)))
        var violations: [Violation] = []
        for (index, line) in code.enumerated() {
            let text = raw[index].trimmingCharacters(in: .whitespaces)
            func report(_ rule: String, _ message: String) {
                violations.append(Violation(
                    path: path, line: index + 1, rule: rule, message: message, text: text))
            }
            for rule in rules where applies(rule, to: path) {
                if let unless = rule.unless, line.contains(unless) { continue }
                // One report per rule and line: the first token found names the problem.
                if let token = rule.tokens.first(where: {
                    containsToken(line, $0, prefix: rule.prefixes)
                }) {
                    report(rule.id, "'\(token)': \(rule.message)")
                }
            }
            if !issueNumberExempt.contains(path),
               let mention = comments[index].firstMatch(of: patterns.issueNumber) {
                report("issue-number", "'\(comments[index][mention.range])': a comment says why; "
                    + "issue numbers and measurements go in commit messages and docs/BENCH.md")
            }
            if raw[index].count > maximumLineWidth {
                report("line-width", "\(raw[index].count) characters, over \(maximumLineWidth): "
                    + "wrap the line")
            }
            switch optOut(raw[index]) {
            case .withReason:
                continue
            case .withoutReason:
                report("opt-out", "'// tidy: ordered' needs a reason after it")
            case .none:
                break
            }
            if let problem = unorderedIteration(line, patterns) {
                report("unordered-iteration", problem + "; sort first, or add "
                    + "'// tidy: ordered <reason>'")
            }
        }
        return violations + longFunctions(code, raw: raw, path: path)
    }

    static func applies(_ rule: Rule, to path: String) -> Bool {
        if rule.exempt.contains(where: path.hasPrefix) { return false }
        return rule.only.isEmpty || rule.only.contains(where: path.hasPrefix)
    }

    // MARK: Tokens

    static func isIdentifier(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_"
    }

    /// Whether `token` occurs in `line` and is not part of a longer identifier on either side
    /// (on the sides where the token itself starts or ends with an identifier character).
    static func containsToken(_ line: String, _ token: String, prefix: Bool = false) -> Bool {
        var searchStart = line.startIndex
        while let range = line.range(of: token, range: searchStart..<line.endIndex) {
            searchStart = line.index(after: range.lowerBound)
            if let first = token.first, isIdentifier(first), range.lowerBound > line.startIndex,
               isIdentifier(line[line.index(before: range.lowerBound)]) {
                continue
            }
            if !prefix, let last = token.last, isIdentifier(last), range.upperBound < line.endIndex,
               isIdentifier(line[range.upperBound]) {
                continue
            }
            return true
        }
        return false
    }

    // MARK: Unordered iteration (a documented heuristic)

    /// Names declared in the file with a Set or Dictionary type: `name: Set<…>`,
    /// `name: Dictionary<…>`, `name: [Key: Value]`, or initialised with `Set(…)`,
    /// `Set<…>(…)`, `[:]`, `[Key: Value]()` or `Dictionary(…)`.
    static func unorderedNames(in lines: [String]) -> Set<String> {
        let declaration = try! Regex(
            #"\b(\w+)\s*:\s*(?:Set\s*<|Dictionary\s*<|\[\s*[\w.]+(?:<[^>]*>)?\s*:)"#)
        let initialised = try! Regex(#"\b(?:var|let)\s+(\w+)\s*=\s*"#
            + #"(?:Set\s*(?:<[^>]*>)?\(|Dictionary\s*(?:<[^>]*>)?\(|\[:\]|\[[\w.<>\s]+:.*\]\s*\()"#)
        var names = Set<String>()
        for line in lines {
            for match in line.matches(of: declaration) + line.matches(of: initialised) {
                if let name = match.output[1].substring { names.insert(String(name)) }
            }
        }
        return names
    }

    /// Methods whose result shows the order of the collection they are called on.
    static let revealingMethods = "forEach|map|compactMap|flatMap|reduce|first|last|joined|"
        + "enumerated|makeIterator|prefix|suffix|dropFirst|dropLast|lazy|elementsEqual"

    /// The regular expressions of the heuristic, compiled once per scan.
    struct Patterns {
        let tupleLoop = try! Regex(#"\bfor\s+(?:case\s+)?(?:let\s+|var\s+)?\("#)
        let loopSource = try! Regex(#"\bfor\b.*?\bin\s+(.+?)\s*(?:\{|\bwhere\b|$)"#)
        let keysOrValues = try! Regex(
            #"\.(?:keys|values)\s*\.\s*(?:filter|"# + revealingMethods + #")\b"#)
        let keysOrValuesArray = try! Regex(#"\bArray\s*\([^()]*\.(?:keys|values)\s*\)"#)
        let keysOrValuesSource = try! Regex(#"\.(?:keys|values)$"#)
        /// "issue 19", "Issues 5", "issue #6" in a comment.
        let issueNumber = try! Regex(#"(?i)\bissues?\s+#?[0-9]+"#)
        let names: [(name: String, iterated: Regex<AnyRegexOutput>)]
        /// Arrays of tuples, minus any name also declared unordered in this file.
        let tupleArrays: Set<String>

        init(unorderedNames: Set<String>, tupleArrays: Set<String>) {
            self.tupleArrays = tupleArrays.subtracting(unorderedNames)
            names = unorderedNames.sorted().map { name in
                (name, try! Regex(#"(?:^|[^\w.]|self\.)"# + name
                    + #"\s*\.\s*(?:"# + Tidy.revealingMethods + #")\b"#))
            }
        }
    }
    static let orderedSources = ["sorted", ".enumerated()", "zip(", ".indices", "stride("]

    /// Describes the unordered iteration on a code line, or nil.
    ///
    /// Flags (1) `for (a, b) in X` (the shape of iterating a Dictionary) unless X is sorted,
    /// enumerated, zipped or indices; (2) iteration of `.keys` or `.values` (a `for` over them,
    /// an order-revealing method on them, or `Array(….keys)`); (3) a `for` over, or an
    /// order-revealing method on, a name this file declares as a Set or Dictionary. Lines that
    /// mention `sorted` pass. It is a heuristic: a false alarm is silenced with
    /// `// tidy: ordered <reason>` on the line.
    static func unorderedIteration(_ line: String, _ patterns: Patterns) -> String? {
        if line.contains("sorted") { return nil }
        let source = line.firstMatch(of: patterns.loopSource)?.output[1].substring
            .map(String.init)
        if let source, line.contains(patterns.tupleLoop),
           !orderedSources.contains(where: source.contains),
           !patterns.tupleArrays.contains(lastComponent(of: source)) {
            return "'for (…) in \(source)' iterates in hash order if it is a Dictionary"
        }
        if line.contains(patterns.keysOrValues) || line.contains(patterns.keysOrValuesArray)
            || source?.contains(patterns.keysOrValuesSource) == true
        {
            return "'.keys' / '.values' iterate in hash order"
        }
        for (name, iterated) in patterns.names {
            let looped = source.map { $0 == name || $0 == "self." + name } ?? false
            if looped || line.contains(iterated) {
                return "'\(name)' is a Set or Dictionary: its order changes from run to run"
            }
        }
        return nil
    }

    /// Names declared as arrays of tuples: `name: [(…)]` or `name = [(…)]`.
    static func tupleArrayNames(in lines: [String]) -> Set<String> {
        let declaration = try! Regex(#"\b(\w+)\s*(?::|=)\s*\[\s*\("#)
        var names = Set<String>()
        for line in lines {
            for match in line.matches(of: declaration) {
                if let name = match.output[1].substring { names.insert(String(name)) }
            }
        }
        return names
    }

    /// `problems` for `self.lexer.problems`; the whole text when it is not a member chain.
    static func lastComponent(of source: String) -> String {
        let isChain = source.allSatisfy { isIdentifier($0) || $0 == "." }
        return isChain ? String(source.split(separator: ".").last ?? "") : source
    }

    enum OptOut { case withReason, withoutReason }

    /// Reads `// tidy: ordered <reason>` from a raw line; the reason must have a word in it.
    static func optOut(_ rawLine: String) -> OptOut? {
        guard let range = rawLine.range(of: "// tidy: ordered") else { return nil }
        let reason = rawLine[range.upperBound...]
        return reason.contains(where: \.isLetter) ? .withReason : .withoutReason
    }

    // MARK: Blanking comments and strings

    enum Context {
        case string(multiline: Bool, hashes: Int)
        case interpolation(depth: Int)
    }

    /// The file's lines with comments and string-literal contents replaced by spaces;
    /// interpolated expressions inside strings stay, since they are code.
    static func codeLines(_ source: String) -> [String] {
        blankedLines(source).code
    }

    /// `codeLines`, and the file's lines with everything but comments replaced by spaces.
    static func blankedLines(_ source: String) -> (code: [String], comments: [String]) {
        let characters = Array(source)
        var output: [Character] = []
        output.reserveCapacity(characters.count)
        var commentOutput: [Character] = []
        commentOutput.reserveCapacity(characters.count)
        var stack: [Context] = []
        var blockDepth = 0
        var inLineComment = false
        var index = 0
        func at(_ offset: Int) -> Character? {
            index + offset < characters.count ? characters[index + offset] : nil
        }
        func blank(_ count: Int, comment: Bool = false) {
            for offset in 0..<count {
                output.append(" ")
                commentOutput.append(comment ? characters[index + offset] : " ")
            }
            index += count
        }
        func keep(_ count: Int) {
            output.append(contentsOf: characters[index..<(index + count)])
            for offset in 0..<count {
                commentOutput.append(characters[index + offset] == "\n" ? "\n" : " ")
            }
            index += count
        }
        func hashes(from offset: Int) -> Int {
            var count = 0
            while at(offset + count) == "#" { count += 1 }
            return count
        }
        while index < characters.count {
            let character = characters[index]
            if character == "\n" {
                inLineComment = false
                if case .string(multiline: false, _)? = stack.last { stack.removeLast() }
                keep(1)
            } else if inLineComment {
                blank(1, comment: true)
            } else if blockDepth > 0 {
                if character == "/" && at(1) == "*" {
                    blockDepth += 1
                    blank(2, comment: true)
                } else if character == "*" && at(1) == "/" {
                    blockDepth -= 1
                    blank(2, comment: true)
                } else {
                    blank(1, comment: true)
                }
            } else if case .string(let multiline, let count)? = stack.last {
                if character == "\\" && hashes(from: 1) == count {
                    if at(1 + count) == "(" {
                        blank(1 + count)
                        keep(1)
                        stack.append(.interpolation(depth: 1))
                    } else {
                        blank(at(1 + count) == "\n" ? 1 + count : 2 + count)
                    }
                } else if character == "\"",
                          !multiline || (at(1) == "\"" && at(2) == "\""),
                          hashes(from: multiline ? 3 : 1) >= count {
                    stack.removeLast()
                    keep((multiline ? 3 : 1) + count)
                } else {
                    blank(1)
                }
            } else if character == "/" && at(1) == "/" {
                inLineComment = true
                blank(2, comment: true)
            } else if character == "/" && at(1) == "*" {
                blockDepth = 1
                blank(2, comment: true)
            } else if (character == "#" || character == "\""), at(hashes(from: 0)) == "\"" {
                let count = hashes(from: 0)
                let multiline = at(count + 1) == "\"" && at(count + 2) == "\""
                stack.append(.string(multiline: multiline, hashes: count))
                keep(count + (multiline ? 3 : 1))
            } else {
                if case .interpolation(let depth)? = stack.last {
                    if character == "(" {
                        stack[stack.count - 1] = .interpolation(depth: depth + 1)
                    } else if character == ")" {
                        stack.removeLast()
                        if depth > 1 { stack.append(.interpolation(depth: depth - 1)) }
                    }
                }
                keep(1)
            }
        }
        func lines(_ characters: [Character]) -> [String] {
            String(characters).split(separator: "\n", omittingEmptySubsequences: false)
                .map(String.init)
        }
        return (lines(output), lines(commentOutput))
    }

    /// Repository-relative paths of the `.swift` files under `folder`, sorted.
    static func swiftFiles(under root: URL, folder: String) throws -> [String] {
        let base = root.appendingPathComponent(folder)
        guard let walker = FileManager.default.enumerator(atPath: base.path) else { return [] }
        var paths: [String] = []
        while let relative = walker.nextObject() as? String {
            if relative.hasSuffix(".swift") { paths.append(folder + "/" + relative) }
        }
        return paths.sorted()
    }

    /// A source snippet and the rules the scanner must report on it, in order.
    struct Example: CustomTestStringConvertible, Sendable {
        let path: String
        let source: String
        let rules: [String]

        var testDescription: String { "\(path): \(source)" }

        init(_ source: String, _ rules: [String] = [], path: String = "Sources/Device/A.swift") {
            self.path = path
            self.source = source
            self.rules = rules
        }

        static let planted: [Example] = [
            Example("let now = Date()", ["wall-clock"]),
            Example("let now = Date.now", ["wall-clock"]),
            Example("let t = DispatchTime.now()", ["wall-clock"]),
            Example("let clock = ContinuousClock()", ["wall-clock"]),
            Example("let id = UUID()", ["uuid"]),
            Example("let id = UUID(uuidString: text)", ["uuid"]),
            Example("let id = UUID()", ["uuid"], path: "Sources/synclab/main.swift"),
            Example("var g = SystemRandomNumberGenerator()", ["system-random"]),
            Example("let n = Int.random(in: 0..<3)", ["system-random"]),
            Example("let x = items.randomElement()", ["system-random"]),
            Example("items.shuffle()", ["system-random"]),
            Example("let r = arc4random_uniform(4)", ["system-random"]),
            Example("let r = drand48()", ["system-random"]),
            Example("DispatchQueue.main.async { }", ["threads"]),
            Example("Thread.sleep(forTimeInterval: 1)", ["threads"]),
            Example("try await Task.sleep(for: .seconds(1))", ["threads"]),
            Example("let x = Thread.current; let y = Date()", ["wall-clock", "threads"]),
            Example("Task { work() }", ["threads"]),
            Example("func load() async throws {}", ["threads"]),
            Example("let v = await value", ["threads"]),
            Example("let env = ProcessInfo.processInfo.environment", ["environment"]),
            Example("let h = key.hashValue", ["hash-value"]),
            Example("import Foundation", ["kernel-import"], path: "Sources/Kernel/A.swift"),
            Example("for (key, value) in table { use(key, value) }", ["unordered-iteration"]),
            Example("for key in table.keys { use(key) }", ["unordered-iteration"]),
            Example("for value in table.values where value > 1 {}", ["unordered-iteration"]),
            Example("var counts = [String: Int]()\ncounts.forEach { print($0) }",
                    ["unordered-iteration"]),
            Example("let names = table.values.map(\\.name)", ["unordered-iteration"]),
            Example("let names = Array(table.keys)", ["unordered-iteration"]),
            Example("var seen: Set<String> = []\nfor name in seen { use(name) }",
                    ["unordered-iteration"]),
            Example("var byID: [EventID: Int] = [:]\nlet all = byID.map { $0.value }",
                    ["unordered-iteration"]),
            Example("let pending = Set<Int>()\nfor item in self.pending {}",
                    ["unordered-iteration"]),
            Example("for (k, v) in table { } // tidy: ordered", ["opt-out", "unordered-iteration"]),
            Example("var table: [String: (Int, Int)] = [:]\nfor (k, v) in table {}",
                    ["unordered-iteration"]),
            Example("let a = \"\\(Date())\"", ["wall-clock"]),
            Example("let a = 1 // issue 19: a faster path", ["issue-number"]),
            Example("/// Issue 19: the table hashed every name", ["issue-number"]),
            Example("/* issues 5 and 6 */ let b = Date()", ["wall-clock", "issue-number"]),
            Example("// A canary (issue #6).", ["issue-number"]),
            Example("let a = \"" + String(repeating: "x", count: 91) + "\"", ["line-width"]),
            Example("/// " + String(repeating: "word ", count: 20), ["line-width"]),
            Example("func long() {\n" + String(repeating: "    step()\n", count: 69) + "}",
                ["function-length"]),
        ]

        static let allowed: [Example] = [
            Example("func full() { // }\n" + String(repeating: "    step(\"}\")\n", count: 68)
                + "}"),
            Example("let now = Date()", path: "Sources/synclab/main.swift"),
            Example("let start = ContinuousClock.now", path: "Sources/synclab/Bench.swift"),
            Example("let n = Int.random(in: 0..<3, using: &generator)"),
            Example("items.shuffle(using: &generator)"),
            Example("let day = SimDate(day: 1)"),
            Example("let threadCount = 1; let isAsync = false; let awaitingReply = true"),
            Example("// Never call Date() or UUID() here; no async, no Thread."),
            Example("/// Uses `DispatchQueue` semantics, see `Task.sleep`."),
            Example("let message = \"Date() and UUID() are banned; await nothing\""),
            Example("for (key, value) in table.sorted(by: { $0.key < $1.key }) { }"),
            Example("for (index, element) in items.enumerated() { }"),
            Example("for (left, right) in zip(a, b) { }"),
            Example("for key in table.keys.sorted() { }"),
            Example("let count = table.keys.count; let has = table.values.contains(1)"),
            Example("var seen: Set<String> = []\nif seen.contains(name) { seen.insert(name) }"),
            Example("for (k, v) in table { } // tidy: ordered, summed, order cannot matter"),
            Example("let env = ProcessInfo.processInfo.environment",
                    path: "Sources/synclab/main.swift"),
            Example("import Testing", path: "Sources/Harness/A.swift"),
            Example("let x = record.valuesByKey; let y = self.values; use(table.keys)"),
            Example("for value in values { }"),
            Example("let pairs: [(Int, String)] = []\nfor (n, s) in pairs where n > 0 {}"),
            Example("var found = [(String, Int)]()\nfor (name, n) in self.found {}"),
            Example("let note = \"issue 19\" // a string's text is not a comment"),
            Example("// SYNC-4 names a catalogue entry; this issue is old, 19 times over"),
            Example("let a = \"" + String(repeating: "x", count: 90) + "\""),
        ]
    }
}
