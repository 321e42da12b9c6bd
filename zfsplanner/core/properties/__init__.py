"""Dataset properties: which exist and which values each release accepts (:mod:`.zfsprops`),
and the value in force, set, inherited or the release's default (:mod:`.resolve`).

Below compression and datasets: both ask :func:`.resolve.default` for a release's defaults.
"""
