/// Why a label means no model on a device, for the runtime error and the failed expectation
/// that meet it: a reader's first guess (a typo) is rarely right, the timing usually is.
extension World {
    /// `'n1' was inserted on 'phone' and its save never reached iCloud (NAIVE-DR-1 …)`, or an
    /// empty string when the label's model is missing for no reason the world can tell.
    func whyMissing(_ label: String, on index: Int) -> String {
        guard let origin = labels.originDevice(of: label), origin != index,
            origin < devices.count, labels.model(label, on: origin, devices: devices) != nil
        else { return "" }
        let originName = devices[origin].name
        let inCloud = labels.recordName(of: label).map { name in
            devices[origin].account.map { appRecord(named: name, of: $0) != nil } ?? false
        } ?? false
        // Once nothing is in flight, waiting longer changes nothing: no 'settle' hint then.
        let settled = isSettled
        if inCloud {
            return settled
                ? "'\(label)' is in iCloud, but '\(devices[index].name)' has not downloaded it, "
                    + "and nothing in flight will (the devices have settled)"
                : "'\(label)' is in iCloud, and '\(devices[index].name)' has not downloaded it "
                    + "yet; 'settle' before this line lets the devices synchronize"
        }
        let weaknesses = profile.catalogue.weaknesses.filter { rule in
            rule.workaround != nil && firedRules[origin].contains(rule.id)
        }
        if let weakness = weaknesses.first, let workaround = weakness.workaround {
            return "'\(label)' was inserted on '\(originName)' and its save never reached iCloud "
                + "(\(weakness.id) fired on '\(originName)'); \(workaround)"
        }
        return settled
            ? "'\(label)' was inserted on '\(originName)' and has not reached iCloud, and nothing "
                + "in flight will send it (the devices have settled)"
            : "'\(label)' was inserted on '\(originName)' and has not reached iCloud yet; the "
                + "devices may not have synchronized ('settle' before this line)"
    }
}
