"""One vdev's geometry: block allocation (:mod:`.alloc`), ashift (:mod:`.ashift`), disk
partitioning and labels (:mod:`.partitioning`), dRAID (:mod:`.draid`), metaslabs
(:mod:`.metaslab`), a group's shape and removability (:mod:`.vdev_shape`) and slop (:mod:`.slop`).
"""
