"""The server registry (docs/contract/server-registry.json): the real file loads, and a malformed one is
refused with an error naming the entry and the field."""

import copy
import json

import pytest

from sockbench_contract.registry import REGISTRY_PATH, ROOT, RegistryError, load, parse

GOOD = {
    "groups": {"default": "what make bench runs", "extra": "more"},
    "requirements": {"here": {"check": ["sh", "-c", "echo /opt/here"], "missing": "here (install it)"},
                     "absent": {"check": ["sh", "-c", "exit 1"], "missing": "Absent 1.0 (apt-get install absent)"},
                     "no-such-program": {"check": ["/nonexistent/bin/x"], "missing": "x"}},
    "servers": [
        {"name": "a-fast", "label": "A, fast", "argv": ["{ROOT}/bin/a"], "install": ["setup-a"],
         "knobs": ["naive"], "mode": "fast", "peer": False, "groups": ["default"]},
        {"name": "a-naive", "label": "A, naive", "argv": ["{ROOT}/bin/a"], "install": ["setup-a"],
         "knobs": ["naive"], "mode": "naive", "peer": False, "groups": ["default", "extra"],
         "requires": ["here"], "ready": {"runtime": "a", "runtime_version": "3.12.*"}},
        {"name": "b", "label": "B (peer)", "argv": ["b"], "install": [], "knobs": [], "mode": "naive",
         "peer": True, "groups": ["extra"], "requires": ["absent"], "runtime_tag": "b2"},
    ],
}


def _broken(change):
    doc = copy.deepcopy(GOOD)
    change(doc)
    return doc


def test_the_real_registry_loads_and_names_every_entry_once():
    reg = load()
    assert len(reg.names()) == len(set(reg.names())) >= 8
    assert "default" in reg.groups and "runtimes" in reg.groups
    for e in reg.entries:
        assert e.argv and not any("{ROOT}" in a for a in e.argv), e.name
        assert all("{ROOT}" not in g for g in e.install), e.name


def test_placeholders_are_expanded_and_knobs_read():
    reg = parse(GOOD)
    a = reg.entry("a-naive")
    assert a.argv == (f"{ROOT}/bin/a",)
    assert a.naive and not reg.entry("a-fast").naive
    assert not reg.entry("b").naive, "a one-path server is naive without a --naive flag"
    assert [e.name for e in reg.select("extra,a-fast")] == ["a-naive", "b", "a-fast"]


@pytest.mark.parametrize("change, message", [
    (lambda d: d["servers"][0].update(knob=["naive"]), r"servers\[0\] \(a-fast\): unknown key\(s\) knob"),
    (lambda d: d["servers"][1].pop("install"), r"servers\[1\] \(a-naive\): missing field\(s\) install"),
    (lambda d: d["servers"][2].update(name="a-fast"), r"servers\[2\] \(a-fast\): duplicate name 'a-fast' \(also servers\[0\]\)"),
    (lambda d: d["servers"][0].update(groups=["defualt"]), r"undeclared group\(s\) defualt"),
    (lambda d: d["servers"][0].update(knobs=["workers"]), r"'workers' and 'broker' go together"),
    (lambda d: d["servers"][0].update(knobs=["threads"]), r"unknown knob\(s\) threads"),
    (lambda d: d["servers"][0].update(mode="turbo"), r"mode: 'turbo'; one of fast, naive"),
    (lambda d: d["servers"][0].update(peer="no"), r"peer: expected bool, got str"),
    (lambda d: d["servers"][0].update(websocket_only="yes"), r"websocket_only: expected bool, got str"),
    (lambda d: d["servers"][0].update(name="A Fast"), r"lower-case letters"),
    (lambda d: d["servers"][0].update(name="extra"), r"taken by a group"),
    (lambda d: d["servers"][0].update(argv=[]), r"argv: must not be empty"),
    (lambda d: d["servers"][1].update(requires=["nowhere"]), r"undeclared requirement\(s\) nowhere"),
    (lambda d: d.update(server=[]), r"the top level: unknown key\(s\) server"),
    (lambda d: d["groups"].pop("default"), r"the 'default' group"),
    (lambda d: d["groups"].update(empty="nobody"), r"groups.empty: no server belongs to it"),
])
def test_malformed_registry_is_refused_naming_entry_and_field(change, message):
    with pytest.raises(RegistryError, match=message):
        parse(_broken(change))


def test_duplicate_json_keys_are_refused_with_the_file_named(tmp_path):
    text = json.dumps(GOOD).replace('"label": "A, fast"', '"label": "A, fast", "label": "again"', 1)
    path = tmp_path / "server-registry.json"
    path.write_text(text)
    with pytest.raises(RegistryError, match=f"{path}: duplicate key 'label'"):
        load(str(path))
    path.write_text("{")
    with pytest.raises(RegistryError, match="not valid JSON"):
        load(str(path))


def test_unknown_names_list_entries_and_groups():
    with pytest.raises(RegistryError, match="unknown server.*a-fst; choose from: a-fast, a-naive, b; or a group: default, extra"):
        parse(GOOD).select("a-fast,a-fst")


def test_requirements_are_checked_by_running_their_command():
    reg = parse(GOOD)
    assert reg.missing(reg.entry("a-fast")) is None, "no requirement"
    assert reg.missing(reg.entry("a-naive")) is None
    assert reg.check_requirement("here") == "/opt/here"
    assert reg.missing(reg.entry("b")) == "Absent 1.0 (apt-get install absent)"
    assert reg.check_requirement("no-such-program") is None, "a check that cannot even start counts as missing"


def test_ready_patterns_catch_a_mislabelled_runtime():
    a = parse(GOOD).entry("a-naive")
    assert a.ready_mismatches({"runtime": "a", "runtime_version": "3.12.1"}) == []
    assert a.ready_mismatches({"runtime": "a", "runtime_version": "3.11.7"}) == [
        "READY says runtime_version=3.11.7, the registry expects runtime_version=3.12.*"]
    assert a.ready_mismatches({"runtime_version": "3.12.1"}) == [
        "READY says runtime=(absent), the registry expects runtime=a"]


def test_registry_file_is_where_the_docs_say():
    assert REGISTRY_PATH == f"{ROOT}/docs/contract/server-registry.json"


def test_websocket_only_servers_say_so_and_full_sockjs_servers_are_the_default():
    registry = load()
    only = {e.name for e in registry.entries if e.websocket_only}
    assert only == {"limit-naive", "limit-fast"}
    assert parse(GOOD).entry("a-fast").websocket_only is False
