"""What every schema module shares: the base class and the number type."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, WithJsonSchema

#: Text without control characters (a NUL cannot even be stored in PostgreSQL).
PLAIN_TEXT = r"^[^\x00-\x1f\x7f]*$"

#: A JSON number as the hub has it: an integer stays an integer, a fraction a fraction (a
#: plain ``float`` field would write ``1`` as ``1.0``). Times in Unix seconds, clock times.
Number = Annotated[int | float, WithJsonSchema({"type": "number"})]


class Schema(BaseModel):
    """An answer's shape. A key the model does not declare is an error, never dropped."""

    model_config = ConfigDict(extra="forbid")
