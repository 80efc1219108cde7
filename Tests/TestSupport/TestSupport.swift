/// Shared helpers for the test targets.
public enum TestSupport {}
