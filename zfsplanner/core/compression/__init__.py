"""Compression as ZFS does it: the rules of ``zio_write_compress`` (:mod:`.rules`), the
compressibility profiles (:mod:`.profiles`), OpenZFS's own compressors (:mod:`.compressors`, the
C extension ``_zfscomp`` built by ``make native``) and measuring samples with them (:mod:`.measured`).
"""
