"""The largest request body the hub takes: a larger one is answered 413, in JSON, before
it is read whole (at once when its ``Content-Length`` says so, else as soon as the bytes
received pass the limit)."""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send


class BodyLimit:
    """ASGI middleware: bodies of at most ``limit`` bytes."""

    def __init__(self, app: ASGIApp, *, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and value.isdigit() and int(value) > self.limit:
                await self.too_large()(scope, receive, send)
                return
        received = 0

        async def counted() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    # Raised where the route reads its body: answered by the app's handler.
                    raise HTTPException(413, self.detail)
            return message

        await self.app(scope, counted, send)

    @property
    def detail(self) -> str:
        return f"the request body is over {self.limit} bytes"

    def too_large(self) -> JSONResponse:
        return JSONResponse(
            {"detail": self.detail}, status_code=413, headers={"Connection": "close"}
        )
