import Foundation
import Reporting

/// The engines' catalogue pages (`EngineProfile.cataloguePage`: docs/RULES.md,
/// docs/NAIVE.md, …), read once from the current folder, so that `synclab compare` can link
/// every rule ID to the heading of the section that lists it. An engine whose page is not
/// there (synclab run outside the repository) gets plain IDs and a note saying where to read
/// its catalogue.
struct CataloguePages {
    /// Engine name to its page (relative to the repository) and the page's text.
    private var pages: [String: (page: String, text: String)] = [:]

    init(engines: [String]) {
        for engine in engines {
            guard let profile = EngineChoice.registry.profile(named: engine),
                let data = FileManager.default.contents(atPath: profile.cataloguePage),
                let text = String(data: data, encoding: .utf8)
            else { continue }
            pages[engine] = (profile.cataloguePage, text)
        }
    }

    /// The engines among `engines` whose page was not found, each with the page looked for.
    func missing(among engines: [String]) -> [(engine: String, page: String)] {
        engines.filter { pages[$0] == nil }.compactMap { engine in
            EngineChoice.registry.profile(named: engine).map { (engine, $0.cataloguePage) }
        }
    }

    /// The links for a page written at `relative` (a path below the output folder) whose
    /// output folder sees the repository at `root`.
    func links(root: String, below relative: String) -> [String: CatalogueLinks] {
        let depth = relative.split(separator: "/").count - 1
        var prefix = String(repeating: "../", count: depth)
        if root != "." && !root.isEmpty { prefix += root.hasSuffix("/") ? root : root + "/" }
        var result: [String: CatalogueLinks] = [:]
        for engine in pages.keys.sorted() {
            guard let page = pages[engine] else { continue }
            result[engine] = CatalogueLinks(page: prefix + page.page, markdown: page.text)
        }
        return result
    }

    /// The way from one folder to another as a relative path (`Reports/compare` to `.` is
    /// `../..`), through their absolute, standardized paths.
    static func relativePath(from folder: String, to target: String) -> String {
        func components(_ path: String) -> [String] {
            let current = FileManager.default.currentDirectoryPath
            let absolute = path.hasPrefix("/")
                ? path : (current as NSString).appendingPathComponent(path)
            return URL(fileURLWithPath: absolute).standardizedFileURL.pathComponents
                .filter { $0 != "/" }
        }
        let from = components(folder)
        let to = components(target)
        var common = 0
        while common < from.count, common < to.count, from[common] == to[common] { common += 1 }
        let parts = Array(repeating: "..", count: from.count - common) + to[common...]
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }
}
