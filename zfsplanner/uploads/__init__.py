"""One upload lifecycle for every kind: benchmark logs, file listings, pool outputs, compression samples.

* :mod:`.kinds`: what differs between kinds (limit, spool folder, model, words, time limit);
* :mod:`.handler`: the one streaming upload handler (to disk, hashed, size-checked) and the
  clean-up of partial files;
* :mod:`.text`: what each kind's files may hold (UTF-8 text, lines of bytes, logs, any bytes),
  checked as they arrive: a NUL, UTF-16 or bytes that are not UTF-8 refused, naming the line;
* :mod:`.models`: the lifecycle's fields, an abstract model each kind's model extends;
* :mod:`.lifecycle`: store, queue, claim, progress and heartbeat, fail, finish, retry, sweep;
* :mod:`.tasks`: the task each kind declares over its one service function (one retry
  policy) and the one beat sweep for every kind.

Services queue through :func:`.lifecycle.enqueue`; they never import tasks.
"""
