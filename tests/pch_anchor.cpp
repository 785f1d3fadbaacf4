// Anchor so that the tests' precompiled header is built once and reused.
