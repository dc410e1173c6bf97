"""The table server: HTTP and WebSocket routes (`app`), live tables (`tables`), their store
(`store`), bots and hints in worker processes (`bots`) and the wire messages (`wire`)."""
