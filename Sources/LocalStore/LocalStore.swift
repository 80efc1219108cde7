// Placeholder; replaced as the target grows.
