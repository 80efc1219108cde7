import Testing

@Test func placeholderLocalStore() { #expect(Bool(true)) }
