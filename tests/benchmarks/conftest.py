"""Benchmarks tests: uploads go to a temporary MEDIA_ROOT; tasks run in-process.

Tasks run eagerly (tests/conftest.py) even when CELERY_BROKER_URL is set, except in tests
marked ``services``, which keep the real broker and a real worker process.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import SAMPLES

CDM = SAMPLES / "crystaldiskmark"
CDM_WD = CDM / "cdmparser_cdm-8.0.1-x64_default_WD-Blue.txt"
CDM_CRUCIAL = CDM / "cdmparser_cdm-8.0.2-x64_default_Crucial-P2.txt"
FIO_JSON = SAMPLES / "fio_json" / "pkb_fio-2.1.4_five-jobs.json"
FIO_BW_LOG = SAMPLES / "fio_log" / "fioplot_fio-3.1_randread-iodepth-1-numjobs-16_bw.1.log"
BONNIE = SAMPLES / "bonnie" / "pkb_bonnie++-1.96_csv.txt"


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path: Path) -> Path:
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT
