"""The test suite: store conformance, relay end to end, SDK, examples, browser, hosting."""
