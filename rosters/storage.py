"""Printed sheets in their store (local disk or an S3-compatible object store: STORAGES
"default", muster/sheet_store.py), for the render task and the download views.

- ``save`` stores a rendered PDF; a store that fails (unreachable, no such bucket, refused)
  raises StoreFailed, so that the job is marked failed and can be retried, never left done
  and pointing at nothing.
- ``open`` opens a finished job's PDF for a download that was already checked; an object the
  store no longer has fails the job (a retry renders it again) and is a 404.
- ``discard`` removes a PDF no job points at (a lost race); the job's own goes with it
  (rosters.models).
"""

from __future__ import annotations

import logging

from django.core.files.base import ContentFile, File
from django.db.models import FileField

from campaigns.errors import NotFound

from .models import PrintJob

logger = logging.getLogger(__name__)

FAILED_MESSAGE = "The sheet was rendered but could not be stored. Retry, or tell the site operator."
GONE_MESSAGE = "The printed file is no longer kept. Retry to print it again."


class StoreFailed(RuntimeError):
    pass


def _file_field() -> FileField:
    field = PrintJob._meta.get_field("file")
    assert isinstance(field, FileField)  # PrintJob.file
    return field


def save(job: PrintJob, data: bytes) -> str:
    """Store a job's PDF under a fresh random name; the name, or StoreFailed."""
    field = _file_field()
    name = field.generate_filename(job, "sheet.pdf")
    try:
        return str(field.storage.save(name, ContentFile(data)))
    except Exception as error:  # noqa: BLE001 - whatever the store says, the job must not hang on it
        logger.exception("Storing the PDF of print job %s failed", job.pk)
        raise StoreFailed(type(error).__name__) from error


def discard(name: str) -> None:
    try:
        _file_field().storage.delete(name)
    except Exception:  # noqa: BLE001 - an orphan in the store is harmless; the render stands
        logger.exception("Could not delete the unused PDF %s", name)


def open(job: PrintJob) -> File[bytes]:  # noqa: A001 - the storage API's word
    """A finished job's PDF, opened and readable; NotFound when the store has lost it (the job
    is then failed, so that Retry prints it again) or cannot be read now."""
    storage = _file_field().storage
    try:
        handle = storage.open(job.file.name or "", "rb")  # a done job has one
        handle.file  # noqa: B018 - an object store fetches here: fail before the answer starts
        return handle
    except Exception as error:  # noqa: BLE001
        if _is_missing(error):
            logger.warning("The PDF of print job %s is gone from the store", job.pk)
            PrintJob.objects.filter(pk=job.pk, status=PrintJob.DONE, file=job.file.name).update(
                status=PrintJob.FAILED, error=GONE_MESSAGE, file=""
            )
        else:
            logger.exception("Could not read the PDF of print job %s", job.pk)
        raise NotFound("file") from None


def _is_missing(error: Exception) -> bool:
    if isinstance(error, FileNotFoundError):
        return True
    response = getattr(error, "response", None)  # botocore's ClientError
    code = str((response or {}).get("Error", {}).get("Code", ""))
    return code in {"404", "NoSuchKey", "NotFound"}
