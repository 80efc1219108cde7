import Testing

@Test func placeholderReporting() { #expect(Bool(true)) }
