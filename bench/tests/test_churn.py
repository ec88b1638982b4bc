"""CHURN= in the runner: the value read once (5% or 5, within the schema's range), passed to the measured client
run as --churn, and refused in one line (exit 2) when it is bad or the client would not time every copy."""

import shlex
import types

import pytest

import churn
import measure
from byo_server import client_command as url_client_command
from factories import profile
from bench_cli import parse_args
from run_bench import check_churn
from run_config import OneLineRefusal

SERVER = types.SimpleNamespace(url="http://127.0.0.1:8080", pid=42, ready_line="READY http://127.0.0.1:8080 a=b")


def _config(*extra):
    return parse_args(["--server", "pypy", "--profile", "sessions", "--client-cpu", "1", *extra])


@pytest.mark.parametrize("text, pct", [("5%", 5.0), ("5", 5.0), (" 2.5 % ", 2.5), ("50", 50.0), ("0.1%", 0.1)])
def test_churn_is_a_percentage_with_or_without_the_sign(text, pct):
    assert _config("--churn", text).churn_pct == pct


def test_no_churn_given_is_none_and_the_client_gets_no_flag():
    config = _config()
    assert config.churn_pct is None and churn.client_args(config.churn_pct) == []


def test_the_largest_churn_is_the_result_schemas_maximum():
    # One home for the range: results/schema.json, which the client's files must keep too.
    assert churn.max_pct() == 50
    assert churn.parse_pct(f"{churn.max_pct():g}") == churn.max_pct()
    with pytest.raises(ValueError):
        churn.parse_pct(f"{churn.max_pct() + 0.5:g}")


@pytest.mark.parametrize("text", ["abc", "80%", "0", "0%", "-5", "5%%", "nan", "inf", "5 5", "1e1"])
def test_a_bad_churn_is_refused_in_one_line_with_exit_2(text, capsys):
    with pytest.raises(SystemExit) as exc:
        _config("--churn", text)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "usage:" not in err
    assert err.startswith(f"bench: CHURN={text}: ") and "0 < CHURN <= 50" in err


def test_the_measured_run_gets_churn_before_the_extra_client_flags():
    config = _config("--churn", "5%", "--client-args", "--idle-hold-s 2")
    (entry,) = config.variants
    cmd = measure.client_command(config, SERVER, entry, "/tmp/out.json", ["--client-ceilings", "200:9"])
    tail = cmd[cmd.index("--server-ready") + 2:]
    assert tail == ["--churn", "5", "--client-ceilings", "200:9", "--idle-hold-s", "2"]


def test_a_server_you_run_gets_churn_too():
    config = parse_args(["--url", "http://10.0.0.2:9000/echo", "--profile", "sessions", "--client-cpu", "1",
                         "--churn", "2.5"])
    cmd = url_client_command(config, config.variants[0], "/tmp/out.json")
    assert cmd[cmd.index("--churn") + 1] == "2.5"


def test_the_warm_up_pass_never_churns(monkeypatch):
    calls = []
    monkeypatch.setattr(measure.subprocess, "run",
                        lambda cmd, **kw: calls.append(cmd) or types.SimpleNamespace(returncode=0, stderr=""))
    measure.warm_up(_config("--churn", "5"), "http://127.0.0.1:8080/broadcast", profile("warmup"))
    assert "--churn" not in calls[0]


def test_churn_on_a_profile_that_times_only_own_copies_is_refused():
    with pytest.raises(OneLineRefusal, match=r"^CHURN=5 needs the all-copies verdict \(PROFILE=sessions, or "
                                             r"CLIENT_ARGS=--all-copies\): profile quick times only"):
        check_churn(_config("--churn", "5%"), profile("quick"))


@pytest.mark.parametrize("client_args, allowed", [
    ("", False), ("--all-copies", True), ("--all-copies --no-all-copies", False),
    ("--no-all-copies --all-copies", True),
])
def test_client_args_can_choose_all_copies_and_the_last_choice_counts(client_args, allowed):
    config = _config("--churn", "5", f"--client-args={client_args}")
    assert (churn.refusal(config.churn_pct, profile("quick"), config.client_args) is None) is allowed


def test_churn_on_the_sessions_profile_passes_unless_all_copies_is_switched_off():
    sessions = profile("sessions", all_copies=True)
    check_churn(_config("--churn", "5"), sessions)
    with pytest.raises(OneLineRefusal):
        check_churn(_config("--churn", "5", "--client-args=--no-all-copies"), sessions)


def test_the_refusal_is_one_line_and_exit_2_through_the_command_runner(capsys):
    from run_bench import run_as_command

    def body():
        check_churn(_config("--churn", "5"), profile("quick"))

    assert run_as_command("bench", body) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("bench: CHURN=5 needs the all-copies verdict")


def test_no_churn_needs_nothing_of_the_profile():
    check_churn(_config(), profile("quick"))


@pytest.mark.parametrize("doc, pct", [({"parameters": {"churn_pct": 5}}, 5), ({"parameters": {"churn_pct": 0}}, 0),
                                      ({"parameters": {}}, 0)])
def test_a_result_says_its_churn_zero_when_absent(doc, pct):
    assert churn.run_pct(doc) == pct


def test_bench_scaleout_refuses_a_bad_churn_in_one_line_too(capsys):
    import run_scaleout
    with pytest.raises(SystemExit) as exc:
        run_scaleout.parse_args(shlex.split("--workers-list 1,2 --core-share 0.25 --server pypy-fast "
                                            "--profile sessions --churn 80%"))
    assert exc.value.code == 2
    assert capsys.readouterr().err.startswith("bench-scaleout: CHURN=80%: ")
