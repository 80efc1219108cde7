/// Renders a `CloudSnapshot` as text, one fact a line, in the snapshot's (sorted) order.
enum SnapshotRenderer {
    static func render(_ snapshot: CloudSnapshot) -> String {
        var lines = ["environment \(snapshot.environment.rawValue)"]
        if let end = snapshot.outageEnd { lines.append("outage until \(end)") }
        lines.append("change tags \(snapshot.changeTagCounter)")
        lines += schemaLines("development", snapshot.developmentSchema)
        lines += schemaLines("production", snapshot.productionSchema)
        for account in snapshot.accounts { lines += accountLines(account) }
        if let zone = snapshot.publicZone {
            lines.append("public database")
            lines += zoneLines(zone)
            for creator in snapshot.publicCreators {
                lines.append("  creator \(creator.recordName) \(creator.account)")
            }
        }
        return lines.joined(separator: "\n")
    }

    private static func schemaLines(_ name: String, _ types: [CloudSnapshot.RecordType]) -> [String]
    {
        types.map { type in
            let fields = type.fields.map { "\($0.key):\($0.type)" }.joined(separator: " ")
            return "schema \(name) \(type.name)" + (fields.isEmpty ? "" : " " + fields)
        }
    }

    private static func accountLines(_ account: CloudSnapshot.Account) -> [String] {
        var header =
            "account \(account.name) user \(account.userRecordName) epoch \(account.tokenEpoch)"
        header += " feed \(account.databaseSequence)"
        if account.sharedDatabaseSequence > 0 {
            header += " shared-feed \(account.sharedDatabaseSequence)"
        }
        if account.isQuotaFull { header += " quota-full" }
        if let end = account.throttleEnd { header += " throttled-until \(end)" }
        var lines = [header]
        if let throttle = account.partialThrottle {
            lines.append(
                "  next-upload throttle \(throttle.recordCount) retry-after \(throttle.retryAfter)")
        }
        for rejected in account.rejectedRecords {
            lines.append("  reject \(rejected.recordName) \(rejected.code)")
        }
        for subscription in account.subscriptions {
            lines.append(
                "  subscription \(subscription.scope.rawValue): "
                    + subscription.devices.joined(separator: ", "))
        }
        for zone in account.zones { lines += zoneLines(zone) }
        for shared in account.sharedZones { lines.append(sharedZoneLine(shared)) }
        return lines
    }

    private static func sharedZoneLine(_ shared: CloudSnapshot.SharedZone) -> String {
        var line = "  shared \(shared.zone) life \(shared.life)"
        line += shared.isLive ? " live" : " gone"
        line += " seq \(shared.sequence)"
        if !shared.visible.isEmpty { line += " visible " + shared.visible.joined(separator: ",") }
        if !shared.gone.isEmpty { line += " left-view " + shared.gone.joined(separator: ",") }
        if let loss = shared.loss { line += " lost \(loss.rawValue)" }
        return line
    }

    private static func zoneLines(_ zone: CloudSnapshot.Zone) -> [String] {
        var lines = [
            "  zone \(zone.zone) #\(zone.incarnation) \(zone.life.rawValue) seq \(zone.sequence)"
        ]
        for record in zone.records { lines.append("    " + recordLine(record)) }
        for tombstone in zone.tombstones {
            let name = tombstone.recordName
            lines.append("    tombstone \(name) \(tombstone.recordType) seq \(tombstone.sequence)")
        }
        return lines
    }

    static func recordLine(_ record: CloudRecord) -> String {
        var line = "\(record.recordType) \(record.recordName) \(record.changeTag ?? "-")"
        if let device = record.lastModifiedBy, let time = record.modificationTime {
            line += " by \(device) at \(time)"
        }
        if let parent = record.parent { line += " parent=\(parent)" }
        if let share = record.share { line += " share=\(share)" }
        if !record.participants.isEmpty {
            let participants = record.participants.map(\.description).joined(separator: ",")
            line += " participants=[\(participants)]"
        }
        if record.publicPermission != .none { line += " public=\(record.publicPermission)" }
        for key in record.sortedKeys {
            guard let value = record.fields[key] else { continue }
            line += " \(key)=\(render(value))"
        }
        return line
    }

    static func render(_ value: CloudValue) -> String {
        switch value {
        case .string(let text): return quoted(text)
        case .int(let number): return String(number)
        case .double(let number): return String(describing: number)
        case .date(let milliseconds): return "date(\(milliseconds))"
        case .bytes(let bytes): return "bytes(\(summary(bytes)))"
        case .reference(let name, .none): return "ref(\(name))"
        case .reference(let name, .deleteSelf): return "ref(\(name),deleteSelf)"
        case .asset(let bytes): return "asset(\(summary(bytes)))"
        case .list(let values): return "[" + values.map(render).joined(separator: ",") + "]"
        }
    }

    /// Short byte strings as hex, long ones as length and FNV-1a digest.
    private static func summary(_ bytes: [UInt8]) -> String {
        if bytes.count <= 16 {
            return bytes.map { byte in
                let digits = String(byte, radix: 16)
                return digits.count == 1 ? "0" + digits : digits
            }.joined()
        }
        let digest = UserRecordName.fnv1a(bytes, basis: 0xcbf2_9ce4_8422_2325)
        return "\(bytes.count)B:\(UserRecordName.hex(digest))"
    }

    private static func quoted(_ text: String) -> String {
        var result = "\""
        for character in text.unicodeScalars {
            switch character {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            default: result.unicodeScalars.append(character)
            }
        }
        return result + "\""
    }
}
