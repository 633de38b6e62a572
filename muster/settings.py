"""Muster settings, read from the environment (django-environ).

With nothing set, Muster runs on SQLite in ./var and executes background tasks
inline, so a first run needs no services; it serves like production (DEBUG off,
friendly error pages) on the loopback, over plain HTTP, with a key kept in var/.
`DEBUG=1` gives a developer Django's technical pages. A public site (ALLOWED_HOSTS
beyond the loopback) sets SECRET_KEY, DATABASE_URL, REDIS_URL (or the broker's and the
cache's Redis apart: CELERY_BROKER_URL, CACHE_REDIS_URL); see README, "Configuration";
muster/serving.py decides which rules apply.
"""

import os
from datetime import timedelta
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from muster import serving, sheet_store
from muster.config import Env

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

env = Env()
Env.read_env(BASE_DIR / ".env")  # optional; missing file is fine

DEBUG = env.bool("DEBUG", default=False)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"])
# Served to other machines with DEBUG off: a real key, HTTPS, collected static files.
PUBLIC_SITE = serving.is_public(DEBUG, ALLOWED_HOSTS)
try:
    SECRET_KEY = serving.secret_key(
        env.str("SECRET_KEY", default=""), debug=DEBUG, public=PUBLIC_SITE, var_dir=VAR_DIR
    )
except ValueError as error:
    raise ImproperlyConfigured(str(error)) from None
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])
CSRF_FAILURE_VIEW = "muster.error_pages.csrf_failure"  # JSON under /api/
SITE_URL = env.str("SITE_URL", default="http://127.0.0.1:8000")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "campaigns",
    "rosters",
    "api",
    # The games, by pattern: every package under campaigns/systems/ with an apps.py (its AppConfig
    # names its system: campaigns/systems/__init__.py). MUSTER_EXTRA_SYSTEMS adds others, below.
    *sorted(
        f"campaigns.systems.{apps_module.parent.name}"
        for apps_module in (BASE_DIR / "campaigns" / "systems").glob("*/apps.py")
    ),
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "muster.limits.RequestBodyLimit",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "muster.unstorable.UnstorableCharacters",  # before any lookup: NUL and lone surrogates refused
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "axes.middleware.AxesMiddleware",  # turns a locked-out sign-in into muster.signin's answer
    "muster.write_rate.PageWrites",  # how fast a member may write (the API counts in DRF: tokens)
    "muster.database_away.DatabaseAwayPages",  # a 503 page, not a 500, while PostgreSQL is away
    "api.kept.KeptAnswers",  # last: a kept API answer skips the views (api/kept.py)
]

ROOT_URLCONF = "muster.urls"
WSGI_APPLICATION = "muster.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "OPTIONS": {
            # Django's default loaders (cached), then each game's own templates in its folder
            # (campaigns/systems/template_loader.py): no settings change for a new game.
            "loaders": [
                (
                    "django.template.loaders.cached.Loader",
                    [
                        "django.template.loaders.filesystem.Loader",
                        "django.template.loaders.app_directories.Loader",
                        "campaigns.systems.template_loader.GameTemplates",
                    ],
                )
            ],
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "campaigns.views.notices.unread",  # the header's count of unread notices
                "campaigns.views.installable.person",  # whose pages the service worker keeps
            ],
        },
    },
]

# --- Database -------------------------------------------------------------
DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'muster.sqlite3'}"),
}
# Connections are kept between requests (each request would otherwise open one: on PostgreSQL a
# connection costs more than a cached answer), checked before reuse.
if DATABASES["default"]["ENGINE"] not in (
    "django.db.backends.postgresql",
    "django.db.backends.sqlite3",
):
    raise ImproperlyConfigured(
        "DATABASE_URL names a database Muster does not run on: use postgres://USER@HOST:5432/NAME "
        "(or sqlite:///PATH for a trial)."
    )
DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=60)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
# The fixed lookups of every request are prepared statements on PostgreSQL (campaigns/kept_answers/prepared.py);
# off for a pooler that keeps none (PgBouncer before 1.21 in transaction mode).
DB_PREPARED_LOOKUPS = env.bool("DB_PREPARED_LOOKUPS", default=True)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL + IMMEDIATE transactions: concurrent writers wait instead of failing
    # with "database is locked" (SQLite has no SELECT ... FOR UPDATE).
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    if not str(DATABASES["default"]["NAME"]).startswith(":memory:"):
        Path(DATABASES["default"]["NAME"]).parent.mkdir(parents=True, exist_ok=True)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Cache, Celery ------------------------------------------------------------
# REDIS_URL alone (a small site) is the broker and the cache. The broker and the cache are better
# apart (README, "Configuration"; docs/operations.md): the broker's Redis must never evict a queued
# task (maxmemory-policy noeviction), the cache's should evict its least used keys (allkeys-lru).
REDIS_URL = env.str("REDIS_URL", default="")
CACHE_REDIS_URL = env.str("CACHE_REDIS_URL", default="") or REDIS_URL
CELERY_BROKER_URL = (
    env.str("CELERY_BROKER_URL", default="") or REDIS_URL
)  # Celery reads this name too
# Each web worker keeps this many bytes of kept answers in its own memory, in front of Redis, and
# half as many characters of the campaign pages it served lately, ready to serve (kept_answers/pages.py).
MUSTER_LOCAL_CACHE_BYTES = env.int("MUSTER_LOCAL_CACHE_BYTES", default=32 * 1024 * 1024)
if CACHE_REDIS_URL:
    CACHES = {"default": {"BACKEND": "muster.cache.RedisCache", "LOCATION": CACHE_REDIS_URL}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL  # no broker: tasks run inline, after commit
if not CELERY_BROKER_URL:
    CELERY_BROKER_URL = "memory://localhost/"  # never used (eager); a host keeps kombu from warning
CELERY_TASK_EAGER_PROPAGATES = False
# Results are read only by manage.py check_worker: beside the queued tasks.
CELERY_RESULT_BACKEND = env.str(
    "CELERY_RESULT_BACKEND",
    default="cache+memory://" if CELERY_TASK_ALWAYS_EAGER else CELERY_BROKER_URL,
)
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TIME_LIMIT = env.int("CELERY_TASK_TIME_LIMIT", default=300)
CELERY_TASK_SOFT_TIME_LIMIT = CELERY_TASK_TIME_LIMIT - 30
CELERY_BROKER_TRANSPORT_OPTIONS = {
    # Unacknowledged tasks come back after this many seconds (tasks finish well inside it).
    "visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=3600),
}
# Two queues, each with its own workers: sheets (renders, seconds each) and odds (milliseconds
# each), so odds never wait behind a queue of renders.
CELERY_TASK_DEFAULT_QUEUE = env.str("CELERY_QUEUE", default="muster")
CELERY_ODDS_QUEUE = env.str("CELERY_ODDS_QUEUE", default="muster-odds")
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A worker whose broker went away tries again every 1, 2, 3... and at most this many seconds (kombu
# waited up to 30 s), for as long as it is away (Celery gave up after 100 tries): it takes work
# within seconds of Redis coming back, however long the outage (muster.worker_consumer).
MUSTER_BROKER_RECONNECT_SECONDS = env.float("MUSTER_BROKER_RECONNECT_SECONDS", default=5.0)
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_WORKER_CONSUMER = "muster.worker_consumer:Consumer"
# Every worker sends again, this often, the work whose task is gone (rosters.sweep); 0: never.
MUSTER_SWEEP_SECONDS = env.float("MUSTER_SWEEP_SECONDS", default=3.0)
# Club webhooks (campaigns.webhooks) post only to public addresses over https. A development or
# test site that posts to a receiver on its own machine or network allows it here (never in
# production: a webhook URL is typed by any club organizer).
MUSTER_WEBHOOKS_ALLOW_PRIVATE = env.bool("MUSTER_WEBHOOKS_ALLOW_PRIVATE", default=False)
MUSTER_WEBHOOKS_ALLOW_HTTP = env.bool("MUSTER_WEBHOOKS_ALLOW_HTTP", default=False)
# Web Push of notices (campaigns.push): off without a key pair (`manage.py make_vapid_keys` makes
# one). The subject is how a push service reaches the operator (mailto: or https:). Endpoints are
# posted to like webhooks: public addresses over https only, unless a test site allows its own.
MUSTER_VAPID_PUBLIC_KEY = env.str("MUSTER_VAPID_PUBLIC_KEY", default="")
MUSTER_VAPID_PRIVATE_KEY = env.str("MUSTER_VAPID_PRIVATE_KEY", default="")
MUSTER_VAPID_SUBJECT = env.str("MUSTER_VAPID_SUBJECT", default="")
MUSTER_PUSH_ALLOW_PRIVATE = env.bool("MUSTER_PUSH_ALLOW_PRIVATE", default=False)
MUSTER_PUSH_ALLOW_HTTP = env.bool("MUSTER_PUSH_ALLOW_HTTP", default=False)

# --- Auth -------------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # refuses a locked-out sign-in before any password check
    "muster.auth.ModelBackend",  # Django's, reading the signed-in user with a prepared statement
    "django.contrib.auth.backends.ModelBackend",  # sessions signed in before muster.auth was listed
]
# Sign-in throttling (muster.signin): per username and address, counted in the database.
AXES_FAILURE_LIMIT = env.int("LOGIN_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = timedelta(minutes=env.int("LOGIN_COOLOFF_MINUTES", default=15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_DISABLE_ACCESS_LOG = True  # failures only: no record of every successful sign-in
AXES_LOCKOUT_CALLABLE = "muster.signin.locked_out"
# The address counted is the connection's, or behind TRUSTED_PROXY_COUNT proxies the one the
# outermost trusted proxy appended to X-Forwarded-For (muster/proxies.py); never one a client wrote.
TRUSTED_PROXY_COUNT = env.int("TRUSTED_PROXY_COUNT", default=0)
AXES_CLIENT_IP_CALLABLE = "muster.proxies.client_address"
AXES_VERBOSE = False
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "dashboard"
LOGOUT_REDIRECT_URL = "login"

# --- Email ----------------------------------------------------------------------
# EMAIL_URL names the backend and its server at once (console by default: `make run` prints
# mails); the usual EMAIL_* variables, where set, override it (EMAIL_HOST alone means SMTP).
vars().update(env.email_url("EMAIL_URL", default="consolemail://"))
if "EMAIL_HOST" in os.environ and "EMAIL_URL" not in os.environ:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
for _name, _read in (
    ("EMAIL_BACKEND", env.str),
    ("EMAIL_HOST", env.str),
    ("EMAIL_PORT", env.int),
    ("EMAIL_HOST_USER", env.str),
    ("EMAIL_HOST_PASSWORD", env.str),
    ("EMAIL_USE_TLS", env.bool),
    ("EMAIL_USE_SSL", env.bool),
):
    if _name in os.environ:
        vars()[_name] = _read(_name)
# A mail server that does not answer must not hold a worker for long: the task fails and retries.
EMAIL_TIMEOUT = env.int("EMAIL_TIMEOUT", default=20)
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="muster@localhost")
# The hour (0-23, TIME_ZONE) the daily digest of notices goes (campaigns.mails.outbox).
MUSTER_MAIL_DIGEST_HOUR = env.int("MUSTER_MAIL_DIGEST_HOUR", default=7)
# Invitations one organizer may create in an hour (each may send an e-mail): a stolen or
# careless organizer account cannot make the site a mail cannon.
INVITATIONS_PER_HOUR = env.int("INVITATIONS_PER_HOUR", default=20)
# New print jobs in 10 minutes (rosters.print_limits; docs/architecture.md): one member (every
# campaign together), and one side of a campaign (its players together; those who play no side
# are one more group), never the whole campaign: one side's printing must not show in what the
# other side is allowed. A render holds a worker for up to ~8 s; a sheet whose content did not
# change is never rendered again and never refused. SHEET_RENDERS_PER_CAMPAIGN, its name before
# it counted per side, is still read.
# The paper a person's sheets are printed on until they choose another on the sheets panel
# (rosters.models.PaperChoice): "A4" or "Letter".
SHEET_PAPER_DEFAULT = env.str("SHEET_PAPER_DEFAULT", default="A4")
SHEET_RENDERS_PER_MEMBER = env.int("SHEET_RENDERS_PER_MEMBER", default=6)
SHEET_RENDERS_PER_SIDE = env.int(
    "SHEET_RENDERS_PER_SIDE", default=env.int("SHEET_RENDERS_PER_CAMPAIGN", default=12)
)
# Requests that may change something, per signed-in person and minute, pages and API together
# (muster.write_rate; docs/architecture.md): a player at the table sends one every few seconds.
MEMBER_WRITES_PER_MINUTE = env.int("MEMBER_WRITES_PER_MINUTE", default=30)

# --- I18n, static, media --------------------------------------------------------------
LANGUAGE_CODE = "en"
TIME_ZONE = env.str("TIME_ZONE", default="UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = env.path("STATIC_ROOT", default=VAR_DIR / "static")
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_ROOT = env.path("MEDIA_ROOT", default=VAR_DIR / "media")
MEDIA_URL = "/media/"  # never served directly: downloads go through permission-checked views
# Printed sheets: local disk, or an S3-compatible store shared by every machine (muster/sheet_store.py).
SHEETS_STORAGE_URL = env.str("SHEETS_STORAGE_URL", default="")
try:
    _sheets = sheet_store.backend(SHEETS_STORAGE_URL, os.environ)
except ValueError as error:
    raise ImproperlyConfigured(str(error)) from None
STORAGES = {
    "default": _sheets,
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if PUBLIC_SITE
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
# A public site serves what collectstatic gathered; on the loopback whitenoise serves
# the files where they are (make run needs no collectstatic, DEBUG on or off).
WHITENOISE_USE_FINDERS = not PUBLIC_SITE
if not PUBLIC_SITE:  # whitenoise warns on every request when STATIC_ROOT is missing
    Path(STATIC_ROOT).mkdir(parents=True, exist_ok=True)

# --- API -------------------------------------------------------------------------
REST_FRAMEWORK = {
    # How fast a member may write, pages and API together (muster.write_rate).
    "DEFAULT_THROTTLE_CLASSES": ["muster.write_rate.MemberWrites"],
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # DRF's JSON through a faster encoder (api/renderers.py); the browsable API as before.
    "DEFAULT_RENDERER_CLASSES": [
        "api.renderers.JSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
    "DEFAULT_PAGINATION_CLASS": "api.pagination.Pagination",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "api.errors.exception_handler",
    # JSON only: event data nests, which forms cannot carry, and a client generated from the
    # schema must not be offered forms for it (the pages have their own forms).
    "DEFAULT_PARSER_CLASSES": ["api.parsers.BoundedJSONParser"],
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Muster API",
    "DESCRIPTION": "Campaign bookkeeping for wargame clubs.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "api.openapi.document_common_errors",
    ],
}

# --- Security (HTTPS-only on a public site; plain HTTP on the loopback) ----------------
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=PUBLIC_SITE)
# Sessions read from the cache, written through to the database: a signed-in request's session
# costs a cache read, not a query (campaigns/access/signed_in.py asks the database only whether it lives).
SESSION_ENGINE = "muster.sessions"  # Django's cached_db, refusing keys Django never makes
SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=PUBLIC_SITE)
CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=PUBLIC_SITE)
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000 if PUBLIC_SITE else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=PUBLIC_SITE)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=PUBLIC_SITE)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# --- Muster -------------------------------------------------------------------
# The largest request body accepted (pages and API; 413 beyond). An event's data is
# bounded separately (campaigns.schema.fields.EVENT_MAX_BYTES).
MUSTER_MAX_REQUEST_BYTES = env.int("MUSTER_MAX_REQUEST_BYTES", default=256 * 1024)
DATA_UPLOAD_MAX_MEMORY_SIZE = MUSTER_MAX_REQUEST_BYTES
# The largest journal file replay_campaign reads (refused before parsing beyond it).
MUSTER_JOURNAL_MAX_BYTES = env.int("MUSTER_JOURNAL_MAX_BYTES", default=16 * 1024 * 1024)
# Game apps outside campaigns/systems/ (the tests add their test-only games), installed too.
MUSTER_EXTRA_SYSTEMS = env.list("MUSTER_EXTRA_SYSTEMS", default=[])
INSTALLED_APPS += MUSTER_EXTRA_SYSTEMS
# Tests that need PostgreSQL/Redis/a worker skip when absent, unless this is set (CI).
MUSTER_REQUIRE_SERVICES = env.bool("MUSTER_REQUIRE_SERVICES", default=False)

LOG_LEVEL = env.str("LOG_LEVEL", default="WARNING")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    # Django's own console handler (DEBUG only) would print each of its lines a second
    # time beside the root's: its records go to the root's handler alone.
    # In DEBUG, Django's INFO lines too (runserver's requests and reloads), as Django does.
    "filters": {"without_traceback": {"()": "muster.logs.WithoutTraceback"}},
    "loggers": {
        "django": {
            "handlers": [],
            "propagate": True,
            "level": "INFO" if DEBUG and LOG_LEVEL.upper() != "DEBUG" else LOG_LEVEL,
        },
        # A request for a host not in ALLOWED_HOSTS: one line naming it, not a traceback.
        "django.security.DisallowedHost": {"filters": ["without_traceback"], "propagate": True},
    },
}
