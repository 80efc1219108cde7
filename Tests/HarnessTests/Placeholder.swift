import Testing

@Test func placeholderHarness() { #expect(Bool(true)) }
