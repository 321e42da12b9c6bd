"""The plans' HTML views, one module per area: ``designs`` (list, new, import, detail, delete, export,
charts, compression samples), ``designer`` (with the JSON editor's save), ``compare`` (designs side by
side), ``advisor`` (with the planning charts), ``reports``, ``sharing`` (share links and the shared
pages), ``quick`` (the quick planner). No view module imports another: what two share is in
``services`` or ``presentation`` (``.importlinter``)."""
