"""The nginx site in front of gunicorn, written from the app's own settings.

``python -m zfsplanner.server.proxy --output FILE`` writes it (``docker-compose.yml``: the ``web``
service writes it into the volume the ``proxy`` service reads, before gunicorn starts). What it
says comes from the settings the app itself obeys, so the two cannot drift apart:

* ``client_max_body_size``: the largest request any upload kind accepts
  (:func:`zfsplanner.uploads.handler.max_request_bytes`);
* the security headers on static files: :func:`security_headers`, the values the app's
  middleware puts on its own answers;
* the static files' location: ``STATIC_URL``.

The whole request body is buffered by nginx (memory, then a temporary file) before gunicorn sees
a byte of it, so a slow client ties up nginx, never a gunicorn worker; answers are buffered the
same way. Clients' ``X-Forwarded-*`` headers are replaced, never passed on: with
``TRUSTED_PROXY_COUNT=1`` the app trusts exactly what this proxy says.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from django.conf import settings

from zfsplanner.uploads.handler import max_request_bytes
from zfsplanner.web import middleware

# Seconds nginx waits between two reads of a client's body before giving up (a stalled client).
CLIENT_BODY_TIMEOUT = 60
# Seconds nginx waits for gunicorn's answer: longer than gunicorn's own --timeout (120 s).
UPSTREAM_READ_TIMEOUT = 150


def security_headers() -> dict[str, str]:
    """The security headers the app puts on every answer, with the values its middleware uses.

    ``Strict-Transport-Security`` is not here: the app sends it only over HTTPS, and so does the
    proxy (:func:`nginx_site` maps it on the scheme).
    """
    headers = {
        "Content-Security-Policy": getattr(settings, "CONTENT_SECURITY_POLICY", middleware.CONTENT_SECURITY_POLICY),
        "Permissions-Policy": middleware.PERMISSIONS_POLICY,
        "X-Frame-Options": settings.X_FRAME_OPTIONS,
        "Referrer-Policy": settings.SECURE_REFERRER_POLICY,
        "Cross-Origin-Opener-Policy": settings.SECURE_CROSS_ORIGIN_OPENER_POLICY,
    }
    if settings.SECURE_CONTENT_TYPE_NOSNIFF:
        headers["X-Content-Type-Options"] = "nosniff"
    return {name: value for name, value in headers.items() if value}


def strict_transport_security() -> str:
    """Django's ``SecurityMiddleware`` value for HTTPS answers ('' when HSTS is off)."""
    seconds = int(getattr(settings, "SECURE_HSTS_SECONDS", 0) or 0)
    if not seconds:
        return ""
    value = f"max-age={seconds}"
    if getattr(settings, "SECURE_HSTS_INCLUDE_SUBDOMAINS", False):
        value += "; includeSubDomains"
    if getattr(settings, "SECURE_HSTS_PRELOAD", False):
        value += "; preload"
    return value


def _quoted(value: str) -> str:
    if '"' in value or "\\" in value or "$" in value:
        raise ValueError(f"cannot put {value!r} in an nginx string")
    return f'"{value}"'


def nginx_site(
    *, upstream: str, static_root: str, listen: str = "80", body_temp_dir: str | None = None,
    tls_certificate: str = "", tls_key: str = "",
) -> str:
    """The ``server`` block (with its ``upstream`` and ``map``) for nginx's ``http`` context.

    ``upstream``: gunicorn's host:port; ``static_root``: where the collected static files are,
    as the proxy sees them; ``body_temp_dir``: where nginx buffers request bodies (its default
    when None); ``tls_certificate`` and ``tls_key``: files (as nginx sees them) to answer HTTPS
    on port 443 as well (the app redirects plain HTTP there with ``SECURE_SSL_REDIRECT``).
    """
    static_url = "/" + settings.STATIC_URL.strip("/") + "/"
    lines = [f"add_header {name} {_quoted(value)} always;" for name, value in security_headers().items()]
    lines.append("add_header Strict-Transport-Security $zfsplanner_hsts always;")
    headers = "".join(f"        {line}\n" for line in lines)
    nested_headers = "".join(f"            {line}\n" for line in lines)
    temp = f"    client_body_temp_path {body_temp_dir};\n" if body_temp_dir else ""
    tls = (
        f"    listen 443 ssl;\n    ssl_certificate {tls_certificate};\n    ssl_certificate_key {tls_key};\n"
        if tls_certificate and tls_key
        else ""
    )
    return f"""\
# Written by `python -m zfsplanner.server.proxy` from the app's settings; written again at every start.
upstream zfsplanner_app {{
    server {upstream};
}}

map $scheme $zfsplanner_hsts {{
    https {_quoted(strict_transport_security())};
    default "";
}}

server {{
    listen {listen};
{tls}    server_tokens off;

    # Buffered whole before gunicorn sees it: a slow client ties up nginx, never a gunicorn worker.
    client_max_body_size {max_request_bytes()};
    client_body_buffer_size 1m;
    client_body_timeout {CLIENT_BODY_TIMEOUT}s;
{temp}    proxy_request_buffering on;
    proxy_buffering on;
    proxy_connect_timeout 5s;
    proxy_send_timeout 60s;
    proxy_read_timeout {UPSTREAM_READ_TIMEOUT}s;

    # What a client sent in these is replaced: the app trusts one proxy (TRUSTED_PROXY_COUNT=1).
    proxy_set_header Host $host;
    proxy_set_header X-Forwarded-For $remote_addr;
    proxy_set_header X-Forwarded-Proto $scheme;
    proxy_set_header X-Forwarded-Host $host;
    proxy_set_header X-Forwarded-Port $server_port;

    location {static_url} {{
        alias {static_root.rstrip("/")}/;
        gzip_static on;
        expires 1h;
{headers}        location ~ "\\.[0-9a-f]{{12}}\\.[A-Za-z0-9]+$" {{
            # A name with its content hash (the manifest storage) never changes.
            expires max;
{nested_headers}        }}
    }}

    location / {{
        proxy_pass http://zfsplanner_app;
    }}
}}
"""


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Write the nginx site that serves zfsplanner behind gunicorn.")
    parser.add_argument("--output", type=Path, help="the file to write (standard output when omitted)")
    parser.add_argument("--upstream", default="web:8000", help="gunicorn's host:port as nginx reaches it")
    parser.add_argument("--static-root", default="/srv/static", help="the collected static files, as nginx sees them")
    parser.add_argument("--listen", default="80")
    parser.add_argument(
        "--tls-certificate", default=os.environ.get("PROXY_TLS_CERTIFICATE", ""),
        help="certificate file as nginx sees it: answer HTTPS on 443 too (PROXY_TLS_CERTIFICATE)",
    )
    parser.add_argument("--tls-key", default=os.environ.get("PROXY_TLS_KEY", ""), help="its key (PROXY_TLS_KEY)")
    args = parser.parse_args(argv)
    text = nginx_site(
        upstream=args.upstream, static_root=args.static_root, listen=args.listen,
        tls_certificate=args.tls_certificate, tls_key=args.tls_key,
    )
    if args.output is None:
        print(text, end="")
        return
    args.output.parent.mkdir(parents=True, exist_ok=True)
    partial = args.output.with_name(args.output.name + ".new")
    partial.write_text(text)
    partial.replace(args.output)  # nginx never reads half a file


if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zfsplanner.settings")
    import django

    django.setup()
    main()
