"""Every field of a request, read by one function that returns it checked or raises a
request/... error, in a module named for what it reads: the request itself (its body, token,
numbers and identifiers), a seek, a match's writes, the table, moderation.

The rules the fields follow (a clock's bounds, a name's length, a rating's range) are the
core's (relay.core); the core never reads a request."""
