import Testing

@Test func placeholderCloudSim() { #expect(Bool(true)) }
