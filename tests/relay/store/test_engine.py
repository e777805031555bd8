"""Database URLs as the hub prints them: never with a password."""

from __future__ import annotations

import pytest

from relay.store.engine import StoreError, open_store, shown_url


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("sqlite:///relay.db", "sqlite:///relay.db"),
        ("sqlite:////data/relay.db", "sqlite:////data/relay.db"),
        (
            "postgresql+psycopg://relay:s3cret@db.example:5432/relay",
            "postgresql+psycopg://relay:***@db.example:5432/relay",
        ),
        ("postgresql+psycopg://relay@db/relay", "postgresql+psycopg://relay@db/relay"),
        ("not a url with user:pass@host", "(a database URL that cannot be read)"),
        ("nosuch", "nosuch"),
        ("postgresql+psycopg://u:s3cret@h:xx/db", "(a database URL that cannot be read)"),
    ],
)
def test_passwords_are_masked(url, shown):
    assert shown_url(url) == shown


def test_a_url_that_cannot_be_read_is_a_clear_error_without_its_password():
    with pytest.raises(StoreError, match="bad database URL") as refused:
        open_store("postgresql+psycopg://u:s3cret@h:xx/db")
    assert "s3cret" not in str(refused.value)


def test_an_unusable_database_is_named_without_its_password():
    with pytest.raises(StoreError) as refused:
        open_store("postgresql+psycopg://relay:s3cret@127.0.0.1:1/relay")
    assert "s3cret" not in str(refused.value)
    assert "relay:***@127.0.0.1:1/relay" in str(refused.value)
