"""What a dataset uses: its inputs (:mod:`.inputs`), the usage pipeline (:mod:`.usage`),
metadata (:mod:`.metadata`), block-size histograms (:mod:`.blockhist`), the special class
(:mod:`.special`) and measuring files as ZFS stores them (:mod:`.measure`).
"""
