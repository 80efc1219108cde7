import Testing

@Test func placeholderSynclab() { #expect(Bool(true)) }
