// `import OSLog`, as Apple's samples write it, brings os.log's API: `Logger`, `OSLog` and
// `os_log`, all in the `os` overlay (Sources/os).
@_exported import os
