"""The plans' forms, one module per page they serve: ``designs`` (new, import, JSON document, share
links, compression samples), ``designer`` (pool settings, a dataset, a new design), ``vdevs`` (the
designer's vdev group form and disk catalog filter), ``host`` (host and planning inputs), ``advisor``,
``quick``."""
