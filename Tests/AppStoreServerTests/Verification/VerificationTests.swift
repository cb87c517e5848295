import Testing

/// Groups every verification and simulator-PKI suite, so `swift test --filter Verification` runs them all.
@Suite("Verification") struct VerificationTests {}
