"""Where printed sheets (PDFs) are kept: the settings' STORAGES["default"] entry.

Local disk (MEDIA_ROOT) is the embedded default. A site whose web and worker processes run
on several machines keeps them in an S3-compatible object store instead (django-storages),
named by either

- SHEETS_STORAGE_URL=s3://BUCKET[/PREFIX][?endpoint_url=https://...&region_name=...&addressing_style=path]
- or the usual AWS_STORAGE_BUCKET_NAME (with AWS_S3_ENDPOINT_URL, AWS_S3_REGION_NAME,
  AWS_LOCATION, AWS_S3_ADDRESSING_STYLE).

Credentials are boto3's own: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY in the environment
(or .env), or the machine's role. Objects are private (no ACL, never a public URL): downloads
go through Muster's own permission-checked view. Read by the settings: no Django import here.
"""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import parse_qs, urlsplit

LOCAL = {"BACKEND": "django.core.files.storage.FileSystemStorage"}
S3_BACKEND = "storages.backends.s3.S3Storage"
URL_OPTIONS = {"endpoint_url", "region_name", "addressing_style", "signature_version"}


def backend(url: str, environ: Mapping[str, str]) -> dict[str, object]:
    """The STORAGES entry for the sheets, or ValueError saying what is wrong with the URL."""
    if url:
        return {"BACKEND": S3_BACKEND, "OPTIONS": {**_private(), **_from_url(url)}}
    bucket = environ.get("AWS_STORAGE_BUCKET_NAME", "")
    if not bucket:
        return dict(LOCAL)
    options = {"bucket_name": bucket, "location": environ.get("AWS_LOCATION", "").strip("/")}
    for option, variable in [
        ("endpoint_url", "AWS_S3_ENDPOINT_URL"),
        ("region_name", "AWS_S3_REGION_NAME"),
        ("addressing_style", "AWS_S3_ADDRESSING_STYLE"),
    ]:
        if environ.get(variable):
            options[option] = environ[variable]
    return {"BACKEND": S3_BACKEND, "OPTIONS": {**_private(), **options}}


def _from_url(url: str) -> dict[str, str]:
    parts = urlsplit(url)
    if parts.scheme != "s3" or not parts.hostname:
        raise ValueError(
            "SHEETS_STORAGE_URL must look like s3://BUCKET/PREFIX?endpoint_url=https://... "
            "(the credentials in AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)."
        )
    if parts.username or parts.password:
        raise ValueError(
            "SHEETS_STORAGE_URL holds no credentials: give them in AWS_ACCESS_KEY_ID and "
            "AWS_SECRET_ACCESS_KEY."
        )
    query = {name: values[-1] for name, values in parse_qs(parts.query).items()}
    unknown = set(query) - URL_OPTIONS
    if unknown:
        raise ValueError(
            f"SHEETS_STORAGE_URL: unknown option(s) {', '.join(sorted(unknown))}; "
            f"known: {', '.join(sorted(URL_OPTIONS))}."
        )
    return {"bucket_name": parts.hostname, "location": parts.path.strip("/"), **query}


def _private() -> dict[str, object]:
    return {
        "default_acl": None,  # the bucket's own (private): never public-read
        "querystring_auth": True,  # any URL the storage makes is signed and short-lived
        "querystring_expire": 300,
        "file_overwrite": False,  # names are random anyway (rosters.models)
    }
