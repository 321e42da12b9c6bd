"""Request and response plumbing shared by the apps: middleware, API fields and parsers, throttling,
the page cache, sessions, error answers and the htmx helpers."""
