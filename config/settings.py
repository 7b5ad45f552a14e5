"""Settings, from the environment (defaults: a development site on SQLite and the in-memory channel layer).

DJANGO_DEBUG, DJANGO_SECRET_KEY, DJANGO_ALLOWED_HOSTS, DATABASE_URL (DATABASE_POOL_MAX, DATABASE_POOL_MIN,
DATABASE_POOL_TIMEOUT), SYNC_THREADS, REDIS_URL, DJANGO_STATIC_ROOT, DJANGO_EMAIL_BACKEND, DJANGO_DEFAULT_FROM_EMAIL,
SITE_URL, BOT_DELAY.
"""

import os
from pathlib import Path

import dj_database_url
from django.utils.csp import CSP

BASE_DIR = Path(__file__).resolve().parent.parent


def env(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def envbool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def envlist(name: str, default: str) -> list[str]:
    return [item.strip() for item in env(name, default).split(",") if item.strip()]


DEBUG = envbool("DJANGO_DEBUG", True)
SECRET_KEY = env("DJANGO_SECRET_KEY") or "dev-only-insecure-key-change-me-0123456789abcdefghijklmnopqrstuv"
if not DEBUG and SECRET_KEY.startswith("dev-only"):
    raise RuntimeError("Set DJANGO_SECRET_KEY when DJANGO_DEBUG is false.")
ALLOWED_HOSTS = envlist("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver")
CSRF_TRUSTED_ORIGINS = envlist("DJANGO_CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "channels",
    "accounts",
    "tables",
    "config",  # the site's own system checks
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "config.middleware.PermissionsPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",  # Accept-Language, or the language cookie once chosen
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.AccountLanguageMiddleware",  # a signed-in person's chosen language wins
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"
WSGI_APPLICATION = None

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "tables.context_processors.your_turn",
                "accounts.context_processors.turn_sound",
                "accounts.context_processors.deck_builder",
            ],
        },
    },
]

# Database: SQLite unless DATABASE_URL. SQLite, however reached, runs in WAL mode with IMMEDIATE transactions
# (a move's lock is taken at BEGIN, so racing writers wait their turn instead of failing "database is
# locked"), and its connections persist: requests run on SYNC_THREADS long-lived threads
# (config.handlers), each keeping its connection. PostgreSQL goes through psycopg's connection pool, at most
# DATABASE_POOL_MAX connections per process (CONN_MAX_AGE stays 0: Django refuses a pool with persistent
# connections; a request borrows one and gives it back).
SQLITE_OPTIONS = {
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
}


def database_settings(url: str) -> dict:
    if url:
        db = dj_database_url.parse(url)
    else:
        (BASE_DIR / "var").mkdir(exist_ok=True)
        db = {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": env("SQLITE_PATH") or BASE_DIR / "var" / "db.sqlite3",
        }
    if db["ENGINE"] == "django.db.backends.sqlite3":
        db["OPTIONS"] = {**db.get("OPTIONS", {}), **SQLITE_OPTIONS}
        db["CONN_MAX_AGE"] = None  # one connection per long-lived thread, kept
    elif db["ENGINE"] == "django.db.backends.postgresql":
        db["CONN_MAX_AGE"] = 0  # the pool keeps the connections
        db["CONN_HEALTH_CHECKS"] = True  # the pool checks a connection before lending it
        db["OPTIONS"] = {
            **db.get("OPTIONS", {}),
            "pool": {
                "min_size": int(env("DATABASE_POOL_MIN", "1")),
                "max_size": int(env("DATABASE_POOL_MAX", "10")),
                # A burst beyond the pool waits for a free connection rather than failing.
                "timeout": float(env("DATABASE_POOL_TIMEOUT", "30")),
            },
        }
    return db


DATABASES = {"default": database_settings(env("DATABASE_URL"))}
# The threads that run the requests' synchronous code (middleware, views), each request on one of them
# (config.handlers.PooledASGIHandler). SQLite takes one writer at a time: one thread, on which requests
# queue in order. PostgreSQL serves requests side by side: a few threads, each borrowing a pool connection.
_sqlite = DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3"
SYNC_THREADS = max(1, int(env("SYNC_THREADS", "1" if _sqlite else "4")))
# Threads per process that serve pages and reads (GET, HEAD, OPTIONS) apart from the SYNC_THREADS that serve
# changes, so that a slow page never holds up a move (config.handlers). 0: on the SYNC_THREADS.
PAGE_THREADS = max(0, int(env("PAGE_THREADS", "2")))
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# Live frames that carry only what changed since the frame a socket holds (tables.frame_diff): 70–80% fewer
# bytes per seat, for about a fifth more CPU per socket move in one process and no difference under daphne
# that its runs can tell (bench/RESULTS.md, 1 December 2026). false: every frame whole.
PARTIAL_FRAMES = envbool("PARTIAL_FRAMES", True)

# Channels and cache: in memory unless REDIS_URL.
REDIS_URL = env("REDIS_URL")
if REDIS_URL:
    # redis-py 8 reads with a 5 s socket timeout by default, the same 5 s the layer's blocking pop waits
    # on an idle channel: every idle socket would then die after 5 s. Allow the read a longer wait.
    _redis_host = {"address": REDIS_URL, "socket_timeout": 30, "socket_connect_timeout": 5}
    # Both survive an outage of Redis (config.layers, config.cache): frames are dropped and sockets told to
    # reconnect, the cache answers from the process's memory, until Redis is back.
    CHANNEL_LAYERS = {
        "default": {"BACKEND": "config.layers.ResilientRedisChannelLayer", "CONFIG": {"hosts": [_redis_host]}}
    }
    CACHES = {
        "default": {
            "BACKEND": "config.cache.ResilientRedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {"socket_connect_timeout": 2, "socket_timeout": 2},
        }
    }
else:
    CHANNEL_LAYERS = {
        "default": {"BACKEND": "config.layers.InMemoryChannelLayer"}
    }  # (its sweep, once a second)
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"
# --- Accounts hardening (accounts/throttle.py, accounts/limits.py) ---------------------------------------
# Failed log-ins: this many tries for one account from one client address within the window, then that
# account is refused from that address until the window passes (other accounts and addresses go on).
LOGIN_FAILURE_LIMIT = int(env("LOGIN_FAILURE_LIMIT", "5"))
LOGIN_FAILURE_WINDOW = int(env("LOGIN_FAILURE_WINDOW", "900"))
# Failed log-ins from one client address, whatever the account, within the same window; then the address is
# refused (429, Retry-After), except for a person who logged in before from it or from that browser: such a
# success is remembered this long (and the browser's device cookie lasts as long).
LOGIN_ADDRESS_FAILURE_LIMIT = int(env("LOGIN_ADDRESS_FAILURE_LIMIT", "30"))
LOGIN_KNOWN_SECONDS = int(env("LOGIN_KNOWN_SECONDS", str(30 * 24 * 3600)))
# Threads per process that hash passwords (log-in, sign-up, password change, API token), apart from the
# SYNC_THREADS that serve moves and pages (config.handlers): a flood of log-ins queues on these. 0: on the
# request threads, as before (bench/login_flood.py measures that as its baseline).
PASSWORD_THREADS = max(0, int(env("PASSWORD_THREADS", "1")))
# Their nice value (0-19, Linux): a machine short of processor serves moves and pages before hashes.
PASSWORD_THREAD_NICE = int(env("PASSWORD_THREAD_NICE", "19"))
# Sign-ups: this many new accounts per client address within the window.
SIGNUP_LIMIT = int(env("SIGNUP_LIMIT", "5"))
SIGNUP_WINDOW = int(env("SIGNUP_WINDOW", "3600"))
# The client address: how many proxies in front of the site append to X-Forwarded-For (the README's
# deployment has one). 0, the default, trusts no header and uses the connection's REMOTE_ADDR.
TRUSTED_PROXY_COUNT = int(env("DJANGO_TRUSTED_PROXY_COUNT", "0"))
# What one account may create: tables not yet over, and new tables a minute (429 past either).
MAX_UNFINISHED_TABLES = int(env("MAX_UNFINISHED_TABLES", "50"))
TABLE_CREATE_LIMIT = int(env("TABLE_CREATE_LIMIT", "30"))
API_TOKEN_LIMIT = int(env("API_TOKEN_LIMIT", "20"))
# A token unused for this many days expires (accounts.models.ApiToken; 0: tokens never expire).
API_TOKEN_IDLE_DAYS = int(env("API_TOKEN_IDLE_DAYS", "90"))
# The API's streams (tables/streams.py): an empty line this often while nothing happens, and a revoked
# token's stream ends within as long.
STREAM_KEEPALIVE_SECONDS = float(env("STREAM_KEEPALIVE_SECONDS", "5"))
# How long a process remembers which person a token names (accounts/api_tokens.py; 0: look it up every call).
# A revocation reaches every process at once through the cache; this bounds a change no signal announces.
API_TOKEN_CACHE_SECONDS = float(env("API_TOKEN_CACHE_SECONDS", "30"))
DECK_LIMIT = int(env("DECK_LIMIT", "50"))
# Password reset (accounts/passwords.py): how long a link works, and how many links one address, or one
# account, is sent per window (further requests get the same answer and no mail).
PASSWORD_RESET_TIMEOUT = int(env("PASSWORD_RESET_TIMEOUT", "7200"))
PASSWORD_RESET_LIMIT = int(env("PASSWORD_RESET_LIMIT", "3"))
PASSWORD_RESET_WINDOW = int(env("PASSWORD_RESET_WINDOW", "3600"))
# Sockets one account may hold open at once, over every process (accounts.socket_guard): the next one is
# closed with code 4429. What a client may send in one socket message, in bytes (1009 past it).
MAX_SOCKETS_PER_ACCOUNT = int(env("MAX_SOCKETS_PER_ACCOUNT", "50"))
SOCKET_MESSAGE_MAX = int(env("SOCKET_MESSAGE_MAX", "16384"))
# --- end of accounts hardening ----------------------------------------------------------------------------

# French and English: the browser's Accept-Language on a first visit, then the header's switcher (kept on
# the account, accounts.preferences; the language cookie for visitors). Catalogues in locale/, compiled
# by `make setup` (the .mo files are also committed, for machines without gettext's msgfmt).
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("fr", "Français")]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = Path(env("DJANGO_STATIC_ROOT") or BASE_DIR / "staticfiles")
STATIC_ROOT.mkdir(exist_ok=True)
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "config.storage.StaticStorage"
    },
}
WHITENOISE_USE_FINDERS = DEBUG

# E-mail: printed to the console in development; SMTP (EMAIL_HOST, EMAIL_PORT, ...) in production.
_email_backend = env(
    "DJANGO_EMAIL_BACKEND",
    "django.core.mail.backends.console.EmailBackend"
    if DEBUG
    else "django.core.mail.backends.smtp.EmailBackend",
)
MAILERS = {"default": {"BACKEND": _email_backend}}
if _email_backend.endswith("smtp.EmailBackend"):
    MAILERS["default"]["OPTIONS"] = {
        "host": env("EMAIL_HOST", "localhost"),
        "port": int(env("EMAIL_PORT", "25")),
        "username": env("EMAIL_HOST_USER") or None,
        "password": env("EMAIL_HOST_PASSWORD") or None,
        "use_tls": envbool("EMAIL_USE_TLS", False),
        "timeout": 10,
    }
DEFAULT_FROM_EMAIL = env("DJANGO_DEFAULT_FROM_EMAIL", "Card Club <noreply@cardclub.localhost>")
SITE_URL = env("SITE_URL", "http://127.0.0.1:8000")
TURN_MAIL_WINDOW = int(env("TURN_MAIL_WINDOW", "3600"))  # at most one "your turn" e-mail per table per hour

# Web Push (accounts/push.py). The VAPID key pair: from the environment (base64url: the raw 32-byte private
# key and the uncompressed public point), else generated once and kept in the database (`manage.py vapid_keys`).
VAPID_PRIVATE_KEY = env("VAPID_PRIVATE_KEY")
VAPID_PUBLIC_KEY = env("VAPID_PUBLIC_KEY")
VAPID_SUBJECT = env("VAPID_SUBJECT")  # "mailto:..." or "https://...": by default DEFAULT_FROM_EMAIL's address
# Subscriptions are accepted only for endpoints starting with one of these (the browsers' push services); no
# request is ever sent elsewhere. A "*" in a prefix stands for one host-name label (Edge's wns2-*.notify...).
PUSH_ENDPOINT_PREFIXES = envlist(
    "PUSH_ENDPOINT_PREFIXES",
    "https://fcm.googleapis.com/,https://updates.push.services.mozilla.com/,"
    "https://wns2-*.notify.windows.com/,https://web.push.apple.com/",
)
PUSH_TIMEOUT = float(env("PUSH_TIMEOUT", "10"))  # seconds one request to a push service may take
PUSH_MAX_ATTEMPTS = int(env("PUSH_MAX_ATTEMPTS", "5"))
PUSH_DEVICE_LIMIT = int(env("PUSH_DEVICE_LIMIT", "20"))  # subscribed devices per account
# The daily digest (for those who chose it instead of a mail per turn) goes out at this local hour or later.
DIGEST_HOUR = int(env("DIGEST_HOUR", "8"))

# Bots: seconds of human-like pause before a bot moves (0 in tests).
BOT_DELAY = float(env("BOT_DELAY", "1.0"))
# The worker (bots, clocks, reminders) runs as a thread of the web process unless told otherwise; with
# several web processes (REDIS_URL) run `manage.py run_worker` instead.
WORKER_IN_PROCESS = envbool("WORKER_IN_PROCESS", not REDIS_URL)

# Security: strict in production, relaxed for the development server.
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False  # htmx reads the token from the page, not the cookie; kept default for forms
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
# Content-Security-Policy, enforced in development too (the browser tests run under it): scripts only
# from our own static files (no inline <script>, no on* attributes, no eval: htmx's hx-on is not used).
# Styles allow inline style="" attributes (boards position cards with them). Sockets: 'self' covers ws/wss.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF, CSP.UNSAFE_INLINE],
    "img-src": [CSP.SELF, "data:"],
    "font-src": [CSP.SELF],
    "connect-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}
# Features no page uses, switched off for every page (config.middleware.PermissionsPolicyMiddleware).
PERMISSIONS_POLICY = (
    "camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), bluetooth=(), "
    "midi=(), magnetometer=(), gyroscope=(), accelerometer=(), display-capture=(), browsing-topics=()"
)
if not DEBUG:
    SESSION_COOKIE_SECURE = envbool("DJANGO_SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = envbool("DJANGO_SECURE_COOKIES", True)
    SECURE_SSL_REDIRECT = envbool("DJANGO_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = int(env("DJANGO_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env("DJANGO_LOG_LEVEL", "INFO")},
    "loggers": {"django.channels.server": {"level": "WARNING"}},
}
# --- The club (presence, challenges, faces, leaving) ----------------------------------------------------
PRESENCE_GRACE = int(env("PRESENCE_GRACE", "180"))  # seconds one stays "online" after the last socket closes
CHALLENGE_LIVE_EXPIRY = int(env("CHALLENGE_LIVE_EXPIRY", "300"))  # a challenge with a clock under an hour
CHALLENGE_TURN_EXPIRY = int(env("CHALLENGE_TURN_EXPIRY", "86400"))  # a turn-based or clockless challenge
CHALLENGE_LIMIT = int(env("CHALLENGE_LIMIT", "20"))  # pending challenges one person may have sent
AVATAR_MAX_BYTES = int(env("AVATAR_MAX_BYTES", "1048576"))  # an uploaded picture, before re-encoding
DELETED_NAME_DAYS = int(env("DELETED_NAME_DAYS", "30"))  # a deleted account's username is free again after
