// os.log's `os_log` in Apple's four overloads: a format string and C arguments (with the level
// after the log, or first), and the newer `OSLogMessage` with interpolations. Each accepts the
// call and writes nothing, as `Logger` does: a log line can never make two runs differ.

/// Apple's `os_log(_:dso:log:type:_:)`.
public func os_log(_ message: StaticString, dso: UnsafeRawPointer? = #dsohandle,
    log: OSLog = .default, type: OSLogType = .default, _ args: any CVarArg...) {}

/// Apple's `os_log(_:dso:log:_:_:)`.
public func os_log(_ type: OSLogType, dso: UnsafeRawPointer = #dsohandle,
    log: OSLog = .default, _ message: StaticString, _ args: any CVarArg...) {}

/// Apple's `os_log(_:)`.
public func os_log(_ message: OSLogMessage) {}

/// Apple's `os_log(_:log:_:)`.
public func os_log(_ logLevel: OSLogType = .default, log logObject: OSLog = .default,
    _ message: OSLogMessage) {}
