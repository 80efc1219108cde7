/* Empty: os.log's API (Logger) is Swift, in the `os` overlay (Sources/os). */
