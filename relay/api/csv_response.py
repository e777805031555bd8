"""A table as CSV, described as such in the OpenAPI document (ladders, rating lists)."""

from __future__ import annotations

from fastapi.responses import PlainTextResponse

CSV_MEDIA_TYPE = "text/csv"


class CsvResponse(PlainTextResponse):
    """A table as CSV."""

    media_type = CSV_MEDIA_TYPE
