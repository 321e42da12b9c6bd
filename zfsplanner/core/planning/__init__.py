"""Planning figures beside the capacity: reliability (:mod:`.reliability`), performance
(:mod:`.performance`), SLOG and RAM sizing (:mod:`.sizing`), Linux md RAID for comparison
(:mod:`.mdraid`) and the estimate's planning sections (:mod:`.sections`).
"""
