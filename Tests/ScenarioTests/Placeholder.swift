import Testing

@Test func placeholderScenario() { #expect(Bool(true)) }
