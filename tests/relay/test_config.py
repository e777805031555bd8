from __future__ import annotations

import pytest

from relay.config import Settings, SettingsError


def test_defaults_then_environment_then_overrides(tmp_path):
    env = {"RELAY_DB": "sqlite:///x.db", "RELAY_PORT": "9000", "RELAY_SETTLE_SECONDS": "0.5"}
    settings = Settings.from_env(env, port=9100, host=None)
    assert settings.db_url == "sqlite:///x.db"
    assert settings.port == 9100
    assert settings.host == "127.0.0.1"
    assert settings.settle_seconds == 0.5
    assert settings.dgt_turn_bits == "2015"
    assert Settings.from_env({"RELAY_DGT_TURN_BITS": "pre-2015"}).dgt_turn_bits == "pre-2015"
    inverted = Settings.from_env({"RELAY_DGT_CLOCK_BIT": "clock-connected"})
    assert inverted.dgt_clock_bit == "clock-connected"
    assert (settings.web_dir / "index.html").is_file()
    assert settings.fanout_threads is None  # one helper per further core
    assert Settings.from_env({"RELAY_FANOUT_THREADS": "0"}).fanout_threads == 0


@pytest.mark.parametrize(
    "env",
    [
        {"RELAY_PORT": "http"},
        {"RELAY_PORT": "70000"},
        {"RELAY_SETTLE_SECONDS": "-1"},
        {"RELAY_BOARD_SWEEP_SECONDS": "-0.1"},
        {"RELAY_DGT_TURN_BITS": "2014"},
        {"RELAY_DGT_CLOCK_BIT": "maybe"},
        {"RELAY_FANOUT_THREADS": "-1"},
        {"RELAY_FANOUT_THREADS": "two"},
    ],
)
def test_bad_values_are_refused(env):
    with pytest.raises(SettingsError):
        Settings.from_env(env)


def test_web_dir_without_pages_is_refused(tmp_path):
    with pytest.raises(SettingsError, match=r"index\.html"):
        Settings.from_env({"RELAY_WEB_DIR": str(tmp_path)})


def test_tracker_windows_follow_the_settle_and_sweep_times():
    settling = Settings.from_env({"RELAY_BOARD_SWEEP_SECONDS": "0.2"}).settling()
    assert settling.link_seconds == 0.2
    assert settling.windows(time_trouble=False)[0] == 0.4  # two sweeps
    assert Settings(settle_seconds=5.0).settling().recover_seconds == 5.0
