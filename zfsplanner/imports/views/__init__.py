"""The import app's pages, one module per area: ``pool_imports`` (a pool from its outputs: preview,
sizes, save), ``histograms`` (file-size histograms of a design's datasets) and ``collect`` (the
collector script and the "Collect from a server" page). The modules never import each other."""
