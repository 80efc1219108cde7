import Foundation

extension Tidy {
    /// The longest a function, initializer or subscript of `Sources/` may be, in lines from
    /// its declaration to its closing brace.
    static let maximumFunctionLines = 70

    /// Declarations whose body is measured (a computed property is not).
    nonisolated(unsafe) static let bodyDeclaration =
        /(^|[^A-Za-z0-9_.])(func\s+[^\s(<]+|init[?!]?\s*[(<]|subscript\s*[(<]|deinit\b)/

    /// Every function longer than `maximumFunctionLines`, named by its declaration's line;
    /// `code` is the file with comments and strings blanked, so braces there do not count.
    static func longFunctions(_ code: [String], raw: [String], path: String) -> [Violation] {
        var violations: [Violation] = []
        for (start, line) in code.enumerated() where line.contains(bodyDeclaration) {
            guard let end = closingLine(of: start, in: code) else { continue }
            let length = end - start + 1
            guard length > maximumFunctionLines else { continue }
            violations.append(Violation(
                path: path, line: start + 1, rule: "function-length",
                message: "\(length) lines, over \(maximumFunctionLines): split it into named "
                    + "steps",
                text: raw[start].trimmingCharacters(in: .whitespaces)))
        }
        return violations
    }

    /// The line of the brace that closes the body opened at or after `start`; nil for a
    /// declaration without a body (a protocol requirement) within a few lines.
    static func closingLine(of start: Int, in code: [String]) -> Int? {
        var depth = 0
        var opened = false
        for index in start..<code.count {
            for character in code[index] {
                if character == "{" {
                    depth += 1
                    opened = true
                } else if character == "}" {
                    depth -= 1
                    if opened && depth == 0 { return index }
                }
            }
            if !opened && index > start + 8 { return nil }
        }
        return nil
    }
}
