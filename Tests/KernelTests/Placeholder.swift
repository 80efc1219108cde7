import Testing

@Test func placeholderKernel() { #expect(Bool(true)) }
