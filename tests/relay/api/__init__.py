"""Tests of the protocol's endpoints, routes, limits, metrics and OpenAPI (relay/api)."""
