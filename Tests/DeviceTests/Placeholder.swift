import Testing

@Test func placeholderDevice() { #expect(Bool(true)) }
