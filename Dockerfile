FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY requirements.txt .
# python-ldap (LDAP log-in) builds against OpenLDAP's headers; the runtime libraries stay.
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev libldap2-dev libsasl2-dev \
    && pip install --no-cache-dir -r requirements.txt \
    && apt-get purge -y --auto-remove gcc libc6-dev libldap2-dev libsasl2-dev \
    && apt-get install -y --no-install-recommends libldap-2.5-0 libsasl2-2 && rm -rf /var/lib/apt/lists/*
COPY . .
# OpenZFS's block compressors (native/zfscomp.c with libzstd 1.4.5): measured compression is exact with them
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev \
    && python native/build.py --force \
    && apt-get purge -y --auto-remove gcc libc6-dev && rm -rf /var/lib/apt/lists/* native/build
RUN DEBUG=false SECRET_KEY=build-only ALLOWED_HOSTS=localhost python manage.py collectstatic --noinput
RUN useradd --create-home app && mkdir -p /data/media /srv/proxy /srv/static && chown -R app /data /srv /app
USER app
EXPOSE 8000
CMD ["gunicorn", "zfsplanner.wsgi:application", "-c", "python:zfsplanner.server.gunicorn_config", "--bind", "0.0.0.0:8000", "--workers", "3"]
