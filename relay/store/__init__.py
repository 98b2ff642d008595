"""Where matches live: the Store interface (`relay.store.base`) and its two backends,
`relay.store.memory` (in-process) and `relay.store.redis` (shared by many processes). Imports
`relay.core` and itself only."""
