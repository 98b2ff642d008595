"""The protocol, apart from any transport: the route table, each endpoint's logic (`Api`),
the fields it reads, rate limits, metrics and the OpenAPI document. Imports `relay.core`,
`relay.store`, `relay.config` and itself."""
