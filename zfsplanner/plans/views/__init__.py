"""The plans' HTML views, one module per area: ``designs`` (list, new, import, detail, delete,
export, charts, compression samples), ``designer``, ``advisor`` (with the planning charts),
``reports``, ``sharing`` (share links and the shared pages), ``quick`` (the quick planner).
No view module imports another: what two share is in ``services`` or ``presentation``."""
