"""The commands that build the design: ``zpool create``/``add``/``attach`` and the order to run
everything in (:mod:`.create`), ``zfs create`` and the root dataset's ``-O`` options (:mod:`.datasets`),
the replication and topology checks ``zpool`` makes (:mod:`.replication`) and what a release
refuses (:mod:`.refusals`).
"""
