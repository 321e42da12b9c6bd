"""The commands that build the design: ``zpool create``/``add`` and ``zfs create``
(:mod:`.create`), the replication and topology checks ``zpool`` makes (:mod:`.replication`)
and what a release refuses (:mod:`.refusals`).
"""
