"""Where uploads are stored: the local disk by default, an S3-compatible object store by settings."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
S3_SETTINGS = ("STORAGE_S3_ENDPOINT_URL", "STORAGE_S3_BUCKET", "STORAGE_S3_ACCESS_KEY", "STORAGE_S3_SECRET_KEY")


def storage(**env_extra: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in S3_SETTINGS}
    env.update(env_extra)
    code = (
        "import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'zfsplanner.settings'); django.setup()\n"
        "from django.core.files.storage import storages; s = storages['default']\n"
        "print(type(s).__module__ + '.' + type(s).__name__)\n"
        "print(getattr(s, 'bucket_name', ''), getattr(s, 'endpoint_url', ''), getattr(s, 'access_key', ''))\n"
    )
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)


def test_uploads_are_stored_on_the_local_disk_by_default():
    result = storage()
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == "django.core.files.storage.filesystem.FileSystemStorage"


def test_a_bucket_stores_uploads_in_the_object_store_it_names():
    result = storage(
        STORAGE_S3_BUCKET="plans", STORAGE_S3_ENDPOINT_URL="http://minio.internal:9000",
        STORAGE_S3_ACCESS_KEY="web", STORAGE_S3_SECRET_KEY="secret",
    )
    assert result.returncode == 0, result.stderr
    backend, options = result.stdout.splitlines()
    assert backend == "storages.backends.s3.S3Storage"
    assert options == "plans http://minio.internal:9000 web"


def test_object_store_settings_without_a_bucket_are_refused():
    result = storage(STORAGE_S3_ENDPOINT_URL="http://minio.internal:9000")
    assert result.returncode != 0 and "STORAGE_S3_BUCKET must be set" in result.stderr
