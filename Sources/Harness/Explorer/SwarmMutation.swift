/// A seed of a guided sweep that reruns an earlier seed's world with part of its chance
/// redrawn (`synclab explore --swarm --guided`): the parent's drawn file, one of its fault
/// rates raised or not, and for each stream of the run either the parent's draw or the
/// seed's own. What it keeps of the parent is what made the parent worth keeping.
public struct SwarmMutation: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The chance of one run, by stream: the world's own (latency, pushes, record names) and
    /// the four of the fault phase (docs/EXPLORER.md §1, "Randomness").
    public enum Stream: String, CaseIterable, Hashable, Sendable, Codable {
        case world, times, ops, values, faults
    }

    /// The seed whose world and kept streams the run reuses.
    public var parent: UInt64
    /// The streams drawn as in the parent's run, in `Stream.allCases` order.
    public var kept: [Stream]
    /// The `chaos fault` line (0-based, in file order) whose rate is multiplied by four
    /// (capped at 50%), so a fault the parent met is met more often.
    public var boostedFault: Int?

    public init(parent: UInt64, kept: [Stream], boostedFault: Int? = nil) {
        self.parent = parent
        self.kept = Stream.allCases.filter(kept.contains)
        self.boostedFault = boostedFault
    }

    /// The seed a stream of `seed`'s run is drawn from.
    public func streamSeed(_ stream: Stream, of seed: UInt64) -> UInt64 {
        kept.contains(stream) ? parent : seed
    }

    /// `parent=17,keep=world+times,boost=2`: the form `--mutation` reads.
    public var description: String {
        let streams = kept.isEmpty ? "none" : kept.map(\.rawValue).joined(separator: "+")
        return "parent=\(parent),keep=\(streams)" + (boostedFault.map { ",boost=\($0)" } ?? "")
    }

    /// Reads `description`'s form; nil with a message saying what is wrong.
    public static func parse(_ text: String) -> Result<SwarmMutation, ParseProblem> {
        var parent: UInt64?
        var kept: [Stream] = []
        var boost: Int?
        for part in text.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2 else {
                return .failure(ParseProblem("'\(part)' is not KEY=VALUE"))
            }
            switch pair[0] {
            case "parent":
                guard let value = UInt64(pair[1]) else {
                    return .failure(ParseProblem("parent takes a seed, not '\(pair[1])'"))
                }
                parent = value
            case "keep":
                guard pair[1] != "none" else { continue }
                for name in pair[1].split(separator: "+") {
                    guard let stream = Stream(rawValue: String(name)) else {
                        let names = Stream.allCases.map(\.rawValue).joined(separator: ", ")
                        return .failure(ParseProblem("no stream '\(name)' (streams: \(names))"))
                    }
                    kept.append(stream)
                }
            case "boost":
                guard let value = Int(pair[1]), value >= 0 else {
                    return .failure(
                        ParseProblem("boost takes a fault line number, not '\(pair[1])'"))
                }
                boost = value
            default:
                return .failure(ParseProblem("unknown key '\(pair[0])' (parent, keep, boost)"))
            }
        }
        guard let parent else { return .failure(ParseProblem("it needs 'parent=SEED'")) }
        return .success(SwarmMutation(parent: parent, kept: kept, boostedFault: boost))
    }

    /// Why a `--mutation` text was not read.
    public struct ParseProblem: Error, Sendable {
        public let message: String
        init(_ message: String) { self.message = message }
    }
}
