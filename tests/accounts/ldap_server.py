"""A real LDAP server for the tests: Debian's OpenLDAP ``slapd`` on a free port, loaded from an LDIF."""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .oidc_server import free_port

SUFFIX = "dc=example,dc=org"
ADMIN_DN = f"cn=admin,{SUFFIX}"
ADMIN_PASSWORD = "directory-admin"  # noqa: S105 - a throw-away test directory
LDIF = Path(__file__).resolve().parent / "data" / "directory.ldif"
SLAPD = "/usr/sbin/slapd"

CONFIG = """\
include /etc/ldap/schema/core.schema
include /etc/ldap/schema/cosine.schema
include /etc/ldap/schema/inetorgperson.schema
include /etc/ldap/schema/nis.schema
modulepath /usr/lib/ldap
moduleload back_mdb
pidfile {dir}/slapd.pid
database mdb
maxsize 16777216
suffix "{suffix}"
rootdn "{admin}"
rootpw {password}
directory {dir}/data
access to attrs=userPassword by self read by anonymous auth by * none
access to * by * read
"""


def available() -> bool:
    return Path(SLAPD).exists() and shutil.which("slapadd") is not None


@contextmanager
def ldap_server(workdir: Path) -> Iterator[str]:
    """Start slapd with the test directory; yield its URI once it answers a bind."""
    import ldap

    (workdir / "data").mkdir(parents=True)
    conf = workdir / "slapd.conf"
    conf.write_text(CONFIG.format(dir=workdir, suffix=SUFFIX, admin=ADMIN_DN, password=ADMIN_PASSWORD))
    subprocess.run(["slapadd", "-f", str(conf), "-l", str(LDIF)], check=True, capture_output=True)
    uri = f"ldap://127.0.0.1:{free_port()}"
    proc = subprocess.Popen([SLAPD, "-f", str(conf), "-h", f"{uri}/", "-d", "0"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while True:  # wait for the server to answer a bind, not for a fixed time
            if proc.poll() is not None:
                raise RuntimeError(f"slapd exited: {proc.stderr.read().decode()[-2000:]}")
            try:
                conn = ldap.initialize(uri)
                conn.simple_bind_s(ADMIN_DN, ADMIN_PASSWORD)
                conn.unbind_s()
                break
            except ldap.SERVER_DOWN:
                if time.monotonic() > deadline:
                    raise
        yield uri
    finally:
        proc.terminate()
        proc.wait(timeout=10)
