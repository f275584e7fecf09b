"""Every command's --help fits 80 columns and wraps between words, never inside one."""

import pytest

from presstime import cli


@pytest.mark.parametrize("name", sorted(cli.COMMANDS))
def test_help_fits_80_columns_without_breaking_words(name, monkeypatch, capsys):
    monkeypatch.setenv("COLUMNS", "80")
    module, parser = cli.command_parser(name)
    assert cli.main([name, "--help"]) == 0
    out = capsys.readouterr().out
    assert all(len(line) <= 80 for line in out.splitlines()), [
        line for line in out.splitlines() if len(line) > 80
    ]
    epilog = getattr(module, "EXAMPLE", None) or ""
    assert " ".join(epilog.split()) in " ".join(out.split())  # every word whole, in order


def test_sim_help_lists_the_long_press(capsys):
    assert cli.main(["sim", "--help"]) == 0
    assert "l 1-6  a long press" in capsys.readouterr().out


def test_watch_help_uses_the_screens_words(capsys):
    assert cli.main(["watch", "--help"]) == 0
    out = capsys.readouterr().out
    assert "~ working" in out and "\u25c0 turn" in out and "~ reporting" not in out
