"""One upload lifecycle for every kind: benchmark logs, file listings, compression samples.

* :mod:`.kinds`: what differs between kinds (limit, spool folder, model, words, time limit);
* :mod:`.handler`: the one streaming upload handler (to disk, hashed, size-checked) and the
  clean-up of partial files;
* :mod:`.models`: the lifecycle's fields, an abstract model each kind's model extends;
* :mod:`.lifecycle`: store, queue, claim, progress and heartbeat, fail, finish, retry, sweep;
* :mod:`.tasks`: the task each kind declares over its one service function (one retry
  policy) and the one beat sweep for every kind.

Services queue through :func:`.lifecycle.enqueue`; they never import tasks.
"""
