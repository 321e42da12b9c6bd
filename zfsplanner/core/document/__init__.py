"""The design document, both ways: :func:`.parse.parse_design` reads JSON into a
:class:`~zfsplanner.core.design.types.Design` that can be estimated (every field checked, the
vdev shapes too), :mod:`.export` writes one back, :mod:`.limits` bounds what may be read.
"""
