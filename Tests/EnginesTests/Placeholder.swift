import Testing

@Test func placeholderEngines() { #expect(Bool(true)) }
