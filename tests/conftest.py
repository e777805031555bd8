import pytest
from hypothesis import settings

# Machines here are shared and noisy: a property is about behaviour, never about speed.
settings.register_profile("relay", deadline=None)
settings.load_profile("relay")


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
