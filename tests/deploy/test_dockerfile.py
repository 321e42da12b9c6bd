"""The Dockerfile is checked by reading it: no Docker engine runs where the tests do."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def dockerfile_lines():
    return [line.strip() for line in (ROOT / "Dockerfile").read_text().splitlines() if line.strip()]


def test_the_image_collects_static_files_with_production_settings_at_build_time():
    lines = dockerfile_lines()
    collect = [line for line in lines if "collectstatic" in line]
    assert len(collect) == 1 and collect[0].startswith("RUN ")
    assert "DEBUG=false" in collect[0] and "--noinput" in collect[0]
    # After the source is copied in, before the image drops to the unprivileged user.
    assert lines.index("COPY . .") < lines.index(collect[0]) < next(
        i for i, line in enumerate(lines) if line.startswith("USER ")
    )


def test_the_build_context_leaves_out_the_virtualenv_secrets_and_local_data():
    ignored = (ROOT / ".dockerignore").read_text().splitlines()
    for entry in (".venv", ".env", "db.sqlite3", "media/", "staticfiles/", "frontend/node_modules/", ".git"):
        assert entry in ignored, entry
    assert "!.env.example" in ignored


def test_the_image_installs_the_pinned_requirements_before_copying_the_source():
    lines = dockerfile_lines()
    # one RUN (continued lines) builds python-ldap against OpenLDAP's headers and drops the compiler after
    install = next(i for i, line in enumerate(lines) if "pip install --no-cache-dir -r requirements.txt" in line)
    assert lines.index("COPY requirements.txt .") < install < lines.index("COPY . .")
    assert lines[install].startswith("&&") and "libldap2-dev" in lines[install - 1]


def test_the_image_runs_as_an_unprivileged_user_that_owns_the_upload_directory():
    lines = dockerfile_lines()
    assert any(line.startswith("USER ") and "root" not in line for line in lines)
    assert any("/data/media" in line and "chown" in line for line in lines)
