"""What the browser tests share."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page

from tests.browser import browser_page


@pytest.fixture
def page() -> Iterator[Page]:
    """A browser page; an uncaught error in the page's scripts fails the test."""
    with browser_page() as page:
        yield page
