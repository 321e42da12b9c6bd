"""Pure calculation core: no Django, no I/O, no global state.

Everything here takes plain values or frozen dataclasses and returns the same, so it
can be tested without a database and reused by the CLI, the API and the pages.
"""
