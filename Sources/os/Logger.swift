@_exported import os

/// os.log's `Logger` for code written for Apple platforms, run under SyncLab on Linux: it
/// accepts Apple's calls and interpolations and writes nothing, so a log line can never make
/// two runs differ (the trace is SyncLab's record of a run).
public struct Logger: Sendable {
    public let subsystem: String
    public let category: String

    public init(subsystem: String, category: String) {
        self.subsystem = subsystem
        self.category = category
    }

    public init() {
        subsystem = ""
        category = ""
    }

    /// A logger that writes to `log`'s subsystem and category.
    public init(_ log: OSLog) {
        subsystem = log.subsystem
        category = log.category
    }

    public func log(_ message: OSLogMessage) {}
    public func log(level: OSLogType, _ message: OSLogMessage) {}
    public func trace(_ message: OSLogMessage) {}
    public func debug(_ message: OSLogMessage) {}
    public func info(_ message: OSLogMessage) {}
    public func notice(_ message: OSLogMessage) {}
    public func warning(_ message: OSLogMessage) {}
    public func error(_ message: OSLogMessage) {}
    public func critical(_ message: OSLogMessage) {}
    public func fault(_ message: OSLogMessage) {}
}

/// A log level, as os.log names them.
public struct OSLogType: Sendable, Hashable, RawRepresentable {
    public let rawValue: UInt8
    public init(_ rawValue: UInt8) { self.rawValue = rawValue }
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let `default` = OSLogType(0)
    public static let info = OSLogType(1)
    public static let debug = OSLogType(2)
    public static let error = OSLogType(16)
    public static let fault = OSLogType(17)
}

/// A log message with Apple's interpolation options (`privacy:`, `format:`, `align:`), which
/// are accepted and dropped; the message is never formatted.
public struct OSLogMessage: ExpressibleByStringInterpolation, Sendable {
    public init(stringLiteral value: String) {}
    public init(stringInterpolation: OSLogInterpolation) {}
}

public struct OSLogInterpolation: StringInterpolationProtocol, Sendable {
    public init(literalCapacity: Int, interpolationCount: Int) {}
    public mutating func appendLiteral(_ literal: String) {}
    public mutating func appendInterpolation<T>(
        _ value: @autoclosure () -> T, privacy: OSLogPrivacy = .auto
    ) {}
    public mutating func appendInterpolation<T>(
        _ value: @autoclosure () -> T, format: OSLogFormat, privacy: OSLogPrivacy = .auto
    ) {}
    public mutating func appendInterpolation<T>(
        _ value: @autoclosure () -> T, align: OSLogAlignment, privacy: OSLogPrivacy = .auto
    ) {}
}

public struct OSLogPrivacy: Sendable {
    public static let auto = OSLogPrivacy()
    public static let `public` = OSLogPrivacy()
    public static let `private` = OSLogPrivacy()
    public static let sensitive = OSLogPrivacy()
    public static func `private`(mask: OSLogPrivacyMask) -> OSLogPrivacy { OSLogPrivacy() }
}

public struct OSLogPrivacyMask: Sendable {
    public static let hash = OSLogPrivacyMask()
    public static let none = OSLogPrivacyMask()
}

public struct OSLogFormat: Sendable {
    public static let fixed = OSLogFormat()
    public static let hex = OSLogFormat()
    public static let octal = OSLogFormat()
    public static let exponential = OSLogFormat()
    public static func fixed(precision: Int) -> OSLogFormat { OSLogFormat() }
}

public struct OSLogAlignment: Sendable {
    public static let none = OSLogAlignment()
    public static func left(columns: Int) -> OSLogAlignment { OSLogAlignment() }
    public static func right(columns: Int) -> OSLogAlignment { OSLogAlignment() }
}
