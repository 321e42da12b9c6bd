"""The pool's space: SIZE and AVAIL (:mod:`.pool`), RAIDZ expansion (:mod:`.expansion`), the
efficiency table (:mod:`.efficiency`), where a block lands (:mod:`.placement`) and zvols'
refreservation (:mod:`.zvol`).

The capacity pipeline, step by step:

* :mod:`..geometry.partitioning` - step 1-2: whole-disk partitioning, labels, reserve;
* :mod:`..geometry.draid` - dRAID groups, asize and whole-stripe metaslabs;
* :mod:`..geometry.metaslab` - metaslab shift and deflated space;
* :mod:`..geometry.vdev_shape` - steps 2-5 for one vdev group, and removability;
* :mod:`..geometry.slop` - slop per OpenZFS version;
* :mod:`.pool` - step 6, :func:`~.pool.pool_capacity`;
* :mod:`.expansion` - RAIDZ expansion, :func:`~.expansion.expansion_report`.
"""
