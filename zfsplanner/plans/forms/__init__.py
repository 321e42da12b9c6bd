"""The plans' forms, one module per page they serve: ``designs`` (new, import, JSON document, share
links, compression samples), ``designer``, ``host`` (host and planning inputs), ``advisor``, ``quick``."""
