"""bench/saturation_tables.py: the reference pages' tables, one per algorithm group, every floor
with its reason. Read from the committed reference set (real files)."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import saturation_tables  # noqa: E402
from results_io import load_result  # noqa: E402
from sockbench_contract.registry import load as load_registry  # noqa: E402

REFERENCE = os.path.join(os.path.dirname(os.path.dirname(HERE)), "results", "reference")


def reference_docs():
    return [load_result(os.path.join(REFERENCE, name)) for name in sorted(os.listdir(REFERENCE))
            if name.endswith(".json")]


def test_figures_print_with_three_significant_digits_and_their_unit():
    assert [saturation_tables._si(v) for v in (2_090_000, 12_280_000, 186_000, 66_240, 950)] == \
        ["2.09 M", "12.3 M", "186 k", "66.2 k", "950"]


def test_one_table_per_algorithm_group_with_a_row_per_file():
    text = saturation_tables.tables(reference_docs(), load_registry(), rss_level=1000)
    heads = [line for line in text.splitlines() if line.startswith("| coalesced") or line.startswith("| one frame")]
    assert heads == ["| coalesced (fast) | 25 | 50 | 100 | 200 | 500 | 1000 | 2000 | RSS at 1000 |",
                     "| one frame per message | 25 | 50 | 100 | 200 | 500 | 1000 | 2000 | RSS at 1000 |"]
    rows = [line for line in text.splitlines() if line.startswith("| ") and "---" not in line and line not in heads]
    assert len(rows) == len(reference_docs())
    assert all(" fast |" in r for r in rows[:3]) and all(" fast |" not in r for r in rows[3:])


def test_every_floor_cell_has_exactly_one_reason_line():
    text = saturation_tables.tables(reference_docs(), load_registry(), rss_level=1000)
    floors_in_cells = sum(line.count("≥ ") for line in text.splitlines() if line.startswith("| "))
    reason_lines = [line for line in text.splitlines() if line.startswith("- ")]
    assert floors_in_cells == len(reason_lines) > 0
    assert all(("busy" in r or "client-bound" in r or "level ended" in r or "max rate" in r) for r in reason_lines)


def test_an_empty_folder_is_a_usage_error(tmp_path, capsys):
    try:
        saturation_tables.main([str(tmp_path)])
    except SystemExit as exc:
        assert exc.code == 2
    else:
        raise AssertionError("expected exit 2")
    assert "no result files" in capsys.readouterr().err
