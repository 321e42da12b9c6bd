"""zfsplanner settings, read from the environment (see .env.example).

With no environment at all the app runs on a SQLite file in the project and Celery
tasks run in-process. DATABASE_URL and CELERY_BROKER_URL switch to PostgreSQL and a
real broker. With DEBUG off, SECRET_KEY and ALLOWED_HOSTS must be set or start-up fails.
"""

from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured

from zfsplanner.accounts import sso_config
from zfsplanner.server.build import source_digest

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
_env_file = BASE_DIR / ".env"
if _env_file.exists():
    environ.Env.read_env(str(_env_file))

DEBUG = env.bool("DEBUG", default=True)

_DEV_SECRET = "dev-only-insecure-key-change-me-0123456789abcdefghijklmnopqrstuvwxyz"  # noqa: S105 - DEBUG only
SECRET_KEY = env.str("SECRET_KEY", default="" if not DEBUG else _DEV_SECRET)
if not SECRET_KEY:
    raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")

ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"] if DEBUG else [])
if not DEBUG and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("ALLOWED_HOSTS must be set when DEBUG is off")
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "allauth",
    "allauth.account",
    "allauth.socialaccount",
    "allauth.socialaccount.providers.openid_connect",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "template_partials",
    "zfsplanner.accounts",
    "zfsplanner.uploads",
    "zfsplanner.plans",
    "benchmarks",
    "zfsplanner.compression",
    "zfsplanner.imports",
]

MIDDLEWARE = [
    # Outermost: every answer carries the security headers (Content-Security-Policy, Permissions-Policy,
    # X-Frame-Options, nosniff, Referrer-Policy), /healthz and the static files WhiteNoise serves included.
    "zfsplanner.web.middleware.SecurityHeadersMiddleware",
    # /healthz before host checks and the TLS redirect: container health checks call plain http://127.0.0.1.
    "zfsplanner.web.middleware.HealthzMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # A NUL or other control character in the path or query is a 400 before any view sees it.
    "zfsplanner.web.middleware.RefuseControlCharactersMiddleware",
    # A posted form field that is not UTF-8 text (invalid bytes, a lone surrogate) is a 400 naming it.
    "zfsplanner.web.middleware.RefuseInvalidFormTextMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    # REMOTE_AUTH_HEADER: the user a trusted authenticating proxy names (off unless set).
    "zfsplanner.accounts.middleware.TrustedProxyUserMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # After htmx (reads request.htmx) and inside messages (which stores what is left unread).
    "zfsplanner.web.middleware.HtmxMessagesMiddleware",
]

if not DEBUG:
    # Production serves collected static files itself (runserver does it while DEBUG is on).
    _after_security = MIDDLEWARE.index("django.middleware.security.SecurityMiddleware") + 1
    MIDDLEWARE.insert(_after_security, "whitenoise.middleware.WhiteNoiseMiddleware")

ROOT_URLCONF = "zfsplanner.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "zfsplanner" / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "zfsplanner.wsgi.application"

DATABASES = {
    "default": env.db_url_config(
        env.str("DATABASE_URL", default="") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}"
    )
}
DATABASES["default"]["ATOMIC_REQUESTS"] = True
# Each web worker keeps its connection (seconds; 0 closes it after every request): a new
# PostgreSQL connection costs a process fork and cold catalog caches on the server, more than
# a cached page. The connection is checked before reuse, so a database restart costs nothing.
DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=60)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several uploads arrive at once from the browser; writers wait for each other instead
    # of failing with "database is locked".
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "timeout": 30,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
    # A file, not Django's shared in-memory database: the browser tests' live server answers
    # several requests at once, and only a file database lets them wait for each other.
    DATABASES["default"].setdefault("TEST", {}).setdefault("NAME", str(BASE_DIR / ".test-db.sqlite3"))
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "plans:home"
LOGOUT_REDIRECT_URL = "account_login"

# Accounts (django-allauth): log in by username or email; see README "Who can sign up".
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
ACCOUNT_ADAPTER = "zfsplanner.accounts.adapter.AccountAdapter"
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "username*", "password1*", "password2*"]
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_CHANGE_EMAIL = True
ACCOUNT_PREVENT_ENUMERATION = True
ACCOUNT_EMAIL_UNKNOWN_ACCOUNTS = False  # a reset asked for an unknown address sends nothing (same answer)
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[zfsplanner] "
ACCOUNT_DEFAULT_HTTP_PROTOCOL = "http" if DEBUG else "https"
# mandatory: a new account logs in only after following the emailed link; optional; none.
ACCOUNT_EMAIL_VERIFICATION = env.str("ACCOUNT_EMAIL_VERIFICATION", default="mandatory")
if ACCOUNT_EMAIL_VERIFICATION not in ("mandatory", "optional", "none"):
    raise ImproperlyConfigured("ACCOUNT_EMAIL_VERIFICATION must be mandatory, optional or none")
# Failed logins (page and token endpoint share the count): per address, and per user name or email.
ACCOUNT_RATE_LIMITS = {"login_failed": env.str("LOGIN_FAILED_LIMIT", default="10/m/ip,5/5m/key")}
# Reverse proxies in front of the app whose X-Forwarded-For entries are trusted (0: use the peer address).
ALLAUTH_TRUSTED_PROXY_COUNT = env.int("TRUSTED_PROXY_COUNT", default=0)
# open: anyone may sign up; invited: only people holding a team invitation; closed: nobody.
SIGNUP_MODE = env.str("SIGNUP_MODE", default="open")
if SIGNUP_MODE not in ("open", "invited", "closed"):
    raise ImproperlyConfigured("SIGNUP_MODE must be open, invited or closed")
# When set, new accounts and changed email addresses must be at one of these domains.
SIGNUP_EMAIL_DOMAINS = [d.lower().lstrip("@") for d in env.list("SIGNUP_EMAIL_DOMAINS", default=[])]

# Single sign-on (docs/authentication.md): OpenID Connect providers, LDAP / Active Directory, a
# trusted proxy's user header; provider groups grant team roles at every log-in.
OIDC_PROVIDERS = sso_config.oidc_providers(env.str)
SOCIALACCOUNT_PROVIDERS = sso_config.socialaccount_providers(
    OIDC_PROVIDERS, env.str("OIDC_SCOPES", default="openid profile email")
)
SOCIALACCOUNT_ADAPTER = "zfsplanner.accounts.adapter.SocialAccountAdapter"
# The log-in button's form is answered by a redirect to the provider: Content-Security-Policy's
# form-action must name its origin.
CSP_FORM_ACTION_ORIGINS = sso_config.origins(OIDC_PROVIDERS)
# An account is linked to an existing one only by an address the provider says it verified.
SOCIALACCOUNT_EMAIL_AUTHENTICATION = True
SOCIALACCOUNT_EMAIL_AUTHENTICATION_AUTO_CONNECT = True
SOCIALACCOUNT_AUTO_SIGNUP = True
SOCIALACCOUNT_EMAIL_VERIFICATION = "none"  # the provider vouches for its users; see the adapter
SOCIALACCOUNT_STORE_TOKENS = False
# Accounts are made at a provider user's first log-in (also when SIGNUP_MODE closes local sign-up).
SSO_CREATE_ACCOUNTS = env.bool("SSO_CREATE_ACCOUNTS", default=True)
_LDAP = sso_config.ldap_settings(env.str, env.bool)
globals().update(_LDAP)
if _LDAP:
    AUTHENTICATION_BACKENDS.insert(0, "django_auth_ldap.backend.LDAPBackend")
REMOTE_AUTH_HEADER = sso_config.header_name(env.str("REMOTE_AUTH_HEADER", default=""), "REMOTE_AUTH_HEADER")
REMOTE_AUTH_GROUPS_HEADER = sso_config.header_name(
    env.str("REMOTE_AUTH_GROUPS_HEADER", default=""), "REMOTE_AUTH_GROUPS_HEADER"
)
REMOTE_AUTH_EMAIL_HEADER = sso_config.header_name(
    env.str("REMOTE_AUTH_EMAIL_HEADER", default=""), "REMOTE_AUTH_EMAIL_HEADER"
)
REMOTE_AUTH_TRUSTED_PROXIES = sso_config.trusted_proxies(env.str("REMOTE_AUTH_TRUSTED_PROXIES", default=""))
if REMOTE_AUTH_HEADER and not REMOTE_AUTH_TRUSTED_PROXIES:
    raise ImproperlyConfigured("REMOTE_AUTH_HEADER needs REMOTE_AUTH_TRUSTED_PROXIES (the proxy's addresses)")
SSO_GROUP_TEAMS = sso_config.group_teams(env.str("SSO_GROUP_TEAMS", default=""))
INVITATION_DAYS = env.int("INVITATION_DAYS", default=14)
API_TOKEN_DAYS = env.int("API_TOKEN_DAYS", default=90)

# Email: SMTP when EMAIL_HOST is set, otherwise printed to the console (the log in production).
EMAIL_HOST = env.str("EMAIL_HOST", default="")
EMAIL_BACKEND = env.str(
    "EMAIL_BACKEND",
    default="django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend",
)
EMAIL_PORT = env.int("EMAIL_PORT", default=587)
EMAIL_HOST_USER = env.str("EMAIL_HOST_USER", default="")
EMAIL_HOST_PASSWORD = env.str("EMAIL_HOST_PASSWORD", default="")
EMAIL_USE_TLS = env.bool("EMAIL_USE_TLS", default=EMAIL_PORT == 587)
EMAIL_USE_SSL = env.bool("EMAIL_USE_SSL", default=EMAIL_PORT == 465)
if EMAIL_USE_TLS and EMAIL_USE_SSL:
    raise ImproperlyConfigured("EMAIL_USE_TLS and EMAIL_USE_SSL cannot both be on")
EMAIL_TIMEOUT = env.int("EMAIL_TIMEOUT", default=10)
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="zfsplanner <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(env.str("STATIC_ROOT", default="") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "zfsplanner" / "static"]
# Uploads (benchmark logs, file listings, compression samples): on the local disk under MEDIA_ROOT,
# or, with STORAGE_S3_BUCKET set, in an S3-compatible object store every web and worker machine
# reads (docs/operations.md). MEDIA_ROOT then only holds the files still arriving (each kind's tmp/).
STORAGE_S3_BUCKET = env.str("STORAGE_S3_BUCKET", default="")
STORAGE_S3_ENDPOINT_URL = env.str("STORAGE_S3_ENDPOINT_URL", default="")  # empty: AWS itself
STORAGE_S3_ACCESS_KEY = env.str("STORAGE_S3_ACCESS_KEY", default="")  # empty: boto3's own lookup (roles, ~/.aws)
STORAGE_S3_SECRET_KEY = env.str("STORAGE_S3_SECRET_KEY", default="")
STORAGE_S3_REGION = env.str("STORAGE_S3_REGION", default="")
if STORAGE_S3_BUCKET:
    _upload_storage = {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": STORAGE_S3_BUCKET,
            "endpoint_url": STORAGE_S3_ENDPOINT_URL or None,
            "access_key": STORAGE_S3_ACCESS_KEY or None,
            "secret_key": STORAGE_S3_SECRET_KEY or None,
            "region_name": STORAGE_S3_REGION or None,
            # Uploads are private: read through the app (access checked), never by a public URL.
            "default_acl": None,
            "querystring_auth": True,
            "file_overwrite": False,
            # A stored file being read is downloaded to a temporary file, not held in memory (4 GB listings).
            "max_memory_size": 8 * 1024 * 1024,
        },
    }
elif STORAGE_S3_ENDPOINT_URL or STORAGE_S3_ACCESS_KEY or STORAGE_S3_SECRET_KEY:
    raise ImproperlyConfigured("STORAGE_S3_BUCKET must be set to store uploads in an object store")
else:
    _upload_storage = {"BACKEND": "django.core.files.storage.FileSystemStorage"}
STORAGES = {
    "default": _upload_storage,
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
MEDIA_ROOT = Path(env.str("MEDIA_ROOT", default="") or BASE_DIR / "media")
MEDIA_URL = "media/"

# Benchmark uploads
BENCHMARK_UPLOAD_MAX_BYTES = env.int("BENCHMARK_UPLOAD_MAX_BYTES", default=200 * 1000 * 1000)
# Histogram inputs (find/du listings, zdb dumps), streamed to disk and bucketed by a worker.
IMPORT_UPLOAD_MAX_BYTES = env.int("IMPORT_UPLOAD_MAX_BYTES", default=4 * 1000 * 1000 * 1000)
# Pool outputs (zpool status & co.) of one import: each file, and all of them together.
POOL_IMPORT_MAX_BYTES = env.int("POOL_IMPORT_MAX_BYTES", default=4 * 1024 * 1024)
# Largest sample file accepted for measuring compression (kept in memory while measured).
COMPRESSION_SAMPLE_MAX_BYTES = env.int("COMPRESSION_SAMPLE_MAX_BYTES", default=64 * 1024 * 1024)
# Measured compression (zfsplanner.compression): samples up to the inline size are measured while the
# request waits, larger ones (up to the upload size) by a Celery worker with a progress bar.
COMPRESSION_INLINE_MAX_BYTES = env.int("COMPRESSION_INLINE_MAX_BYTES", default=4 * 1024 * 1024)
COMPRESSION_UPLOAD_MAX_BYTES = env.int("COMPRESSION_UPLOAD_MAX_BYTES", default=4 * 1024**3)
DATA_UPLOAD_MAX_MEMORY_SIZE = env.int("DATA_UPLOAD_MAX_MEMORY_SIZE", default=10 * 1024 * 1024)
FILE_UPLOAD_MAX_MEMORY_SIZE = 2_621_440

# Celery: no broker configured means tasks run in-process (eagerly).
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = False
CELERY_RESULT_BACKEND = None
# A message is acknowledged only after its task finished, and a task whose worker process
# died (OOM killer, kill -9) is put back on the queue: no upload is lost with a worker.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TIME_LIMIT = env.int("CELERY_TASK_TIME_LIMIT", default=600)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Publishing gives up after about a second when the broker is down; the upload stays queued
# in the database and the sweeper sends it again (docs/operations.md).
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 2, "interval_start": 0, "interval_step": 0.5, "interval_max": 0.5}
CELERY_BROKER_TRANSPORT_OPTIONS = {"socket_connect_timeout": 5, "visibility_timeout": 3600}
# The one retry policy of every upload kind's task (zfsplanner/uploads/tasks.py; the names keep
# their BENCHMARK_ prefix): retried while the database is unreachable, delays doubling from
# RETRY_BACKOFF seconds up to RETRY_BACKOFF_MAX (defaults: about 15 minutes in all), then the sweeper.
BENCHMARK_PARSE_RETRIES = env.int("BENCHMARK_PARSE_RETRIES", default=12)
BENCHMARK_PARSE_RETRY_BACKOFF = env.float("BENCHMARK_PARSE_RETRY_BACKOFF", default=2.0)
BENCHMARK_PARSE_RETRY_BACKOFF_MAX = env.float("BENCHMARK_PARSE_RETRY_BACKOFF_MAX", default=120.0)
# The sweeper (Celery beat, every BENCHMARK_SWEEP_INTERVAL seconds, or `manage.py sweep_uploads`)
# queues again uploads left pending longer than BENCHMARK_PENDING_TIMEOUT seconds, takes back a
# parse whose heartbeat is older than UPLOAD_CLAIM_TIMEOUT seconds when no answering worker holds
# its task (a killed worker: back within claim timeout + interval, 75 s), and removes partial
# upload files nobody wrote for UPLOAD_TEMP_MAX_AGE seconds (docs/operations.md).
BENCHMARK_PENDING_TIMEOUT = env.int("BENCHMARK_PENDING_TIMEOUT", default=300)
BENCHMARK_SWEEP_INTERVAL = env.float("BENCHMARK_SWEEP_INTERVAL", default=30.0)
UPLOAD_CLAIM_TIMEOUT = env.float("UPLOAD_CLAIM_TIMEOUT", default=45.0)
UPLOAD_TEMP_MAX_AGE = env.int("UPLOAD_TEMP_MAX_AGE", default=3600)
# One sweep for every upload kind: benchmark logs, file listings, compression samples (zfsplanner.uploads).
CELERY_BEAT_SCHEDULE = {
    "sweep-uploads": {
        "task": "zfsplanner.uploads.tasks.sweep_uploads_task",
        "schedule": BENCHMARK_SWEEP_INTERVAL,
        "options": {"expires": BENCHMARK_SWEEP_INTERVAL},
    },
}

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "zfsplanner.accounts.authentication.ApiTokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # JSON bodies: at most API_JSON_MAX_BYTES, nesting and NULs checked before parsing; form fields
    # that are not UTF-8 text refused (api_parsers.py).
    "DEFAULT_PARSER_CLASSES": [
        "zfsplanner.web.api_parsers.LimitedJSONParser",
        "zfsplanner.web.api_parsers.TextFormParser",
        "zfsplanner.web.api_parsers.TextMultiPartParser",
    ],
    "DEFAULT_PAGINATION_CLASS": "zfsplanner.web.pagination.BoundedLimitOffsetPagination",
    "PAGE_SIZE": 100,
    "NUM_PROXIES": ALLAUTH_TRUSTED_PROXY_COUNT or None,
    "DEFAULT_THROTTLE_CLASSES": ["zfsplanner.web.throttling.ScopedActionThrottle"],
    "DEFAULT_THROTTLE_RATES": {
        # POST /api/auth/token/ per client address; failed logins are limited further (LOGIN_FAILED_LIMIT).
        "auth-token": env.str("THROTTLE_AUTH_TOKEN", default="10/minute"),
        # Per user (per client address when anonymous); past the rate: 429 with Retry-After.
        "uploads": env.str("THROTTLE_UPLOADS", default="60/hour"),
        "compression": env.str("THROTTLE_COMPRESSION", default="30/hour"),
        "estimate": env.str("THROTTLE_ESTIMATE", default="600/minute"),
        # Accounts created per client address (the sign-up page); a refused form does not count.
        "signup": env.str("THROTTLE_SIGNUP", default="5/hour"),
    },
}
# The cache holds estimates per design revision and the API's throttle counters. Empty: one
# in-memory cache per process; in production share one, e.g. redis://127.0.0.1:6379/1, so
# every gunicorn worker counts the same requests.
CACHES = {"default": env.cache_url("CACHE_URL", default="locmemcache://")}
if CACHES["default"]["BACKEND"] == "django.core.cache.backends.redis.RedisCache":
    CACHES["default"]["BACKEND"] = "zfsplanner.web.cache.RedisCache"  # one Redis client per pool, not per call
# Cached estimates and pages outlive a process (in Redis): their keys carry the build, so an
# upgrade never serves what older code computed. CACHE_KEY_PREFIX overrides the digest.
CACHES["default"]["KEY_PREFIX"] = env.str("CACHE_KEY_PREFIX", default="") or source_digest(BASE_DIR / "zfsplanner")
if env.str("CACHE_URL", default=""):
    # Sessions read from the shared cache (written through to the database). Not with the
    # per-process default cache: a logout in one worker would not reach the others' copies.
    # zfsplanner/web/sessions.py: Django's cached_db, working from the database while Redis is down.
    SESSION_ENGINE = "zfsplanner.web.sessions"
# Largest JSON request body the API reads (a design document is a few kilobytes).
API_JSON_MAX_BYTES = env.int("API_JSON_MAX_BYTES", default=1024 * 1024)
SPECTACULAR_SETTINGS = {
    "TITLE": "zfsplanner API",
    "DESCRIPTION": "Plan ZFS pools, estimate what zpool/zfs list will print, compare benchmark runs.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI from drf-spectacular-sidecar: served by the app itself, works offline, no CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # No deep links: Swagger UI puts each one inside the button that opens the operation (a link in a button
    # is out of reach of the keyboard and of screen readers).
    "SWAGGER_UI_SETTINGS": {"deepLinking": False},
    # Each operation's one-line summary (zfsplanner/web/api_docs.py); the default hook keeps enums as they are.
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "zfsplanner.web.api_docs.add_summaries",
    ],
    "ENUM_NAME_OVERRIDES": {
        "InvitationStateEnum": "zfsplanner.accounts.models.InvitationState",
        "TokenStateEnum": "zfsplanner.accounts.models.TokenState",
        "HistogramStatusEnum": "zfsplanner.imports.models.HistogramStatus",
        # benchmark uploads keep the name they had before histogram uploads brought a second "status"
        "StatusEnum": "benchmarks.models.UploadStatus",
        "HistogramFormatEnum": "zfsplanner.imports.models.HistogramFormat",
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
}

if not DEBUG:
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
