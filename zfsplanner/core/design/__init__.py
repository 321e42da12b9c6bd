"""The design a planner works on: its types (pool, vdev groups, disks, datasets, contents) and
the planning inputs it carries (drive figures, reliability settings).

Plain frozen dataclasses; reading and writing the JSON document is :mod:`..document`.
"""
